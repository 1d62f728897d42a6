import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NodePool } from '../../../apis/v1/nodepool.js';
import { parseResourceList } from '../../../scheduling/resources/resource-list.js';
import { boundPod, cluster, managedNode, T0, type TestNode } from '../../../testing/disruption-builders.js';
import { aNodePool } from '../../../testing/nodepool-builder.js';
import type { BudgetLedger } from '../budgets/budget-mapping.js';
import { type Candidate, evaluateNodes } from '../candidates/evaluate.js';
import { type DisruptionSnapshot, resolveDisruptionOptions } from '../snapshot.js';
import { computeConsolidation } from './consolidation.js';
import type { MethodContext } from './method.js';
import { noCheaperHome } from './no-cheaper-home.js';
import { NodeRoom } from './node-room.js';

const requests = (cpu: string) => parseResourceList({ cpu, memory: '1Gi' });

function candidates(snapshot: DisruptionSnapshot): Candidate[] {
  return evaluateNodes(snapshot, T0).flatMap((e) => (e.candidate === undefined ? [] : [e.candidate]));
}

function candidate(snapshot: DisruptionSnapshot, name: string): Candidate {
  const found = candidates(snapshot).find((c) => c.name === name);
  if (found === undefined) throw new Error(`no candidate ${name}`);
  return found;
}

/** A pool that launches only the capacity types given. */
function poolOf(capacityTypes: readonly string[]): NodePool {
  return aNodePool({
    metadata: { name: 'default' },
    spec: {
      template: {
        spec: {
          requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: [...capacityTypes] }],
        },
      },
    },
  });
}

describe('NodeRoom', () => {
  const snapshot = cluster({
    nodes: [
      // medium: 4 cpu; 3.5 used leaves 0.5.
      { node: managedNode('full'), pods: [boundPod('f', 'full', { cpu: '3500m' })] },
      // 1 used leaves 3.
      { node: managedNode('roomy'), pods: [boundPod('r', 'roomy', { cpu: '1' })] },
      { node: managedNode('going', { deleting: true }), pods: [] },
      { node: managedNode('starting'), pods: [], initialized: false },
    ],
  });
  const room = new NodeRoom(snapshot);

  it('finds a node with room by requests, and none for a pod larger than any room left', () => {
    expect(room.fitsElsewhere(requests('2'), new Set())).toBe(true);
    expect(room.fitsElsewhere(requests('3500m'), new Set())).toBe(false);
  });

  it('does not count the nodes named, a node being deleted or one not initialized, however empty', () => {
    expect(room.fitsElsewhere(requests('2'), new Set(['roomy']))).toBe(false);
    expect(room.fitsElsewhere(requests('400m'), new Set(['roomy']))).toBe(true);
  });

  it('knows only the types a NodePool can launch', () => {
    const spotOnly = new NodeRoom(cluster({ nodes: [], pools: [poolOf(['spot'])] }));
    const { types, requirements } = spotOnly.launchable(poolOf(['spot']));
    expect(types.map((t) => t.name)).toEqual(['small', 'medium', 'large']);
    expect(requirements.get('karpenter.sh/capacity-type')?.has('on-demand')).toBe(false);
  });
});

describe('noCheaperHome', () => {
  /** `node` (its type and capacity type) with one pod of `cpu`, beside a medium left 0.5 cpu. */
  function besideFull(node: TestNode['node'], cpu: string, pools?: readonly NodePool[]): DisruptionSnapshot {
    return cluster({
      nodes: [
        { node, pods: [boundPod('p', node.metadata.name!, { cpu })] },
        { node: managedNode('full'), pods: [boundPod('f', 'full', { cpu: '3500m' })] },
      ],
      ...(pools === undefined ? {} : { pools }),
    });
  }

  it('leaves the decision to the simulation when every pod fits on another node', () => {
    const snapshot = besideFull(managedNode('n', { type: 'small', capacityType: 'spot' }), '400m');
    expect(noCheaperHome([candidate(snapshot, 'n')], snapshot, new NodeRoom(snapshot), true)).toBeUndefined();
  });

  it('turns away a node whose pod fits nowhere else and which no cheaper type could hold', () => {
    // small spot ($0.07/h): nothing is cheaper.
    const snapshot = besideFull(managedNode('n', { type: 'small', capacityType: 'spot' }), '1500m');
    expect(noCheaperHome([candidate(snapshot, 'n')], snapshot, new NodeRoom(snapshot), true)).toBe(
      'its pod default/p fits on no other initialized node, and no instance type that could hold it is cheaper than $0.07/h',
    );
  });

  it('counts the spot types that could replace one spot node against the 15 spot-to-spot needs', () => {
    // medium spot ($0.14/h) in a spot-only pool: only small spot ($0.07/h) is cheaper.
    const snapshot = besideFull(managedNode('n', { type: 'medium', capacityType: 'spot' }), '1500m', [
      poolOf(['spot']),
    ]);
    const c = candidate(snapshot, 'n');
    expect(noCheaperHome([c], snapshot, new NodeRoom(snapshot), true)).toBe(
      'its pod default/p fits on no other initialized node, and a spot replacement needs at least 15 spot instance types that could hold it cheaper than $0.14/h, found 1',
    );
    expect(noCheaperHome([c], snapshot, new NodeRoom(snapshot), false)).toBe(
      'its pod default/p fits on no other initialized node, spot-to-spot consolidation is disabled, and no instance type off spot that could hold it is cheaper than $0.14/h',
    );
  });

  it('leaves a node to the simulation when a cheaper type the pool can launch could hold the pod', () => {
    // medium on-demand ($0.2/h): small spot ($0.07/h) could hold 1.5 cpu.
    const onDemand = besideFull(managedNode('n'), '1500m');
    expect(noCheaperHome([candidate(onDemand, 'n')], onDemand, new NodeRoom(onDemand), true)).toBeUndefined();
    // medium spot with on-demand allowed: small on-demand ($0.1/h) is cheaper, off spot.
    const spot = besideFull(managedNode('n', { type: 'medium', capacityType: 'spot' }), '1500m');
    expect(noCheaperHome([candidate(spot, 'n')], spot, new NodeRoom(spot), true)).toBeUndefined();
  });

  it('never turns away a consolidation the simulation would make (property)', () => {
    const podCpu = fc.constantFrom('500m', '1', '1500m', '3');
    const node = fc.record({
      type: fc.constantFrom('small', 'medium'),
      spot: fc.boolean(),
      initialized: fc.integer({ min: 0, max: 3 }).map((x) => x !== 0),
      pods: fc.array(podCpu, { maxLength: 3 }),
    });
    const scenario = fc.record({
      nodes: fc.array(node, { minLength: 1, maxLength: 5 }),
      capacityTypes: fc.constantFrom(['spot'], ['on-demand'], ['spot', 'on-demand']),
      spotToSpot: fc.boolean(),
    });
    let refused = 0;
    fc.assert(
      fc.property(scenario, ({ nodes, capacityTypes, spotToSpot }) => {
        const testNodes: TestNode[] = nodes.map((n, i) => {
          const name = `node-${i}`;
          const size = n.type === 'small' ? 2000 : 4000;
          let used = 0;
          const pods = n.pods.flatMap((cpu, j) => {
            const m = cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000;
            if (used + m > size - 100) return [];
            used += m;
            return [boundPod(`${name}-p${j}`, name, { cpu, memory: '256Mi' })];
          });
          return {
            node: managedNode(name, { type: n.type, capacityType: n.spot ? 'spot' : 'on-demand' }),
            pods,
            initialized: n.initialized,
          };
        });
        const snapshot = cluster({ nodes: testNodes, pools: [poolOf(capacityTypes)] });
        const options = resolveDisruptionOptions({ spotToSpotConsolidation: spotToSpot });
        const context: MethodContext = { snapshot, options, budgets: {} as BudgetLedger };
        const room = new NodeRoom(snapshot);
        for (const c of candidates(snapshot)) {
          if (c.node.reschedulable.length === 0) continue;
          const simulated = computeConsolidation('single-node-consolidation', [c], context);
          const screened = computeConsolidation('single-node-consolidation', [c], { ...context, room });
          const why = noCheaperHome([c], snapshot, room, spotToSpot);
          if (why !== undefined) {
            refused++;
            expect('command' in simulated).toBe(false);
          }
          expect('command' in screened ? screened.command : undefined).toEqual(
            'command' in simulated ? simulated.command : undefined,
          );
        }
      }),
      { numRuns: 300 },
    );
    // The property must have met the case it is about.
    expect(refused).toBeGreaterThan(0);
  });
});
