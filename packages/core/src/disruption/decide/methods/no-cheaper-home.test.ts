import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NodePool } from '../../../apis/v1/nodepool.js';
import { parseResourceList } from '../../../scheduling/resources/resource-list.js';
import {
  boundPod,
  cluster,
  managedNode,
  podsThatFit,
  T0,
  type TestNode,
} from '../../../testing/disruption-builders.js';
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

  it('works out a screen once per key and gives back its verdict, undefined included', () => {
    const kept = new NodeRoom(snapshot);
    let asked = 0;
    const screen = (verdict: string | undefined) => () => {
      asked++;
      return verdict;
    };
    expect(kept.screened('a', screen('no room'))).toBe('no room');
    expect(kept.screened('a', screen('other'))).toBe('no room');
    expect(kept.screened('b', screen(undefined))).toBeUndefined();
    expect(kept.screened('b', screen('other'))).toBeUndefined();
    expect(asked).toBe(2);
  });

  it('finds a node with room by requests, and none for a pod larger than any room left', () => {
    expect(room.fitsElsewhere(requests('2'), new Set())).toBe(true);
    expect(room.fitsElsewhere(requests('3500m'), new Set())).toBe(false);
  });

  it('does not count the nodes named, a node being deleted or one not initialized, however empty', () => {
    expect(room.fitsElsewhere(requests('2'), new Set(['roomy']))).toBe(false);
    expect(room.fitsElsewhere(requests('400m'), new Set(['roomy']))).toBe(true);
  });

  it('says when pods that each fit somewhere cannot fit together, counting only nodes with room for the smallest', () => {
    const fragments = cluster({
      nodes: [
        // 2.4 cpu left: room for one 1.5 cpu pod, not two.
        { node: managedNode('half'), pods: [boundPod('h', 'half', { cpu: '1600m' })] },
        // 0.9 cpu left on each: 2.7 in all, none of it usable by a 1.5 cpu pod.
        ...['a', 'b', 'c'].map((n) => ({ node: managedNode(n), pods: [boundPod(n, n, { cpu: '3100m' })] })),
      ],
    });
    const fragmented = new NodeRoom(fragments);
    const two = [requests('1500m'), requests('1500m')];
    expect(fragmented.fitsElsewhere(requests('1500m'), new Set())).toBe(true);
    const short = fragmented.togetherShortfall(two, new Set());
    expect(short?.resource).toBe('cpu');
    expect(short?.needed.toString()).toBe('3');
    expect(short?.free.toString()).toBe('2400m');
    // A smaller pod among them opens the fragments: 2.4 + 3 x 0.9 is more than 2.3.
    expect(fragmented.togetherShortfall([requests('1500m'), requests('800m')], new Set())).toBeUndefined();
    // A second half-empty node can take the other pod; named as leaving, it cannot.
    const twoHalves = new NodeRoom(
      cluster({
        nodes: ['h1', 'h2'].map((n) => ({ node: managedNode(n), pods: [boundPod(n, n, { cpu: '1600m' })] })),
      }),
    );
    expect(twoHalves.togetherShortfall(two, new Set())).toBeUndefined();
    expect(twoHalves.togetherShortfall(two, new Set(['h2']))?.free.toString()).toBe('2400m');
    // Memory counts as well: two pods of 1Gi and one node with 1.5Gi of its 16Gi left.
    const memory = new NodeRoom(
      cluster({
        nodes: [{ node: managedNode('m'), pods: [boundPod('m', 'm', { cpu: '100m', memory: '14848Mi' })] }],
      }),
    );
    expect(memory.togetherShortfall([requests('100m'), requests('100m')], new Set())?.resource).toBe(
      'memory',
    );
    // One pod alone is the question fitsElsewhere answers.
    expect(fragmented.togetherShortfall([requests('1500m')], new Set())).toBeUndefined();
  });

  it('counts nothing of a node that is overcommitted on any resource', () => {
    const over = cluster({
      nodes: [
        { node: managedNode('half'), pods: [boundPod('h', 'half', { cpu: '1600m' })] },
        { node: managedNode('over'), pods: [boundPod('o', 'over', { cpu: '1', memory: '40Gi' })] },
      ],
    });
    expect(
      new NodeRoom(over)
        .togetherShortfall([requests('1500m'), requests('1500m')], new Set())
        ?.free.toString(),
    ).toBe('2400m');
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

  it('turns away a node whose pods fit elsewhere one at a time but not together', () => {
    const snapshot = cluster({
      nodes: [
        {
          node: managedNode('n', { type: 'small', capacityType: 'spot' }),
          pods: ['p1', 'p2'].map((p) => boundPod(p, 'n', { cpu: '700m' })),
        },
        { node: managedNode('roomy'), pods: [boundPod('r', 'roomy', { cpu: '3' })] },
      ],
    });
    expect(noCheaperHome([candidate(snapshot, 'n')], snapshot, new NodeRoom(snapshot), true)).toBe(
      'its 2 pods need 1400m cpu together, more than the 1 free on the other initialized nodes with room for one of them, and no instance type that could hold one of them is cheaper than $0.07/h',
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
    let refusedTogether = 0;
    fc.assert(
      fc.property(scenario, ({ nodes, capacityTypes, spotToSpot }) => {
        const testNodes: TestNode[] = nodes.map((n, i) => {
          const name = `node-${i}`;
          const pods = podsThatFit(name, n.type, n.pods);
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
        const all = candidates(snapshot).filter((c) => c.node.reschedulable.length > 0);
        // Each candidate alone, and each pair of neighbours as multi-node consolidation tries them.
        const sets = [...all.map((c) => [c]), ...all.slice(1).map((c, i) => [all[i] as Candidate, c])];
        for (const set of sets) {
          const method = set.length === 1 ? 'single-node-consolidation' : 'multi-node-consolidation';
          const simulated = computeConsolidation(method, set, context);
          const screened = computeConsolidation(method, set, { ...context, room });
          const why = noCheaperHome(set, snapshot, room, spotToSpot);
          if (why !== undefined) {
            refused++;
            if (why.includes('together')) refusedTogether++;
            expect('command' in simulated).toBe(false);
          }
          expect('command' in screened ? screened.command : undefined).toEqual(
            'command' in simulated ? simulated.command : undefined,
          );
        }
      }),
      { numRuns: 300 },
    );
    // The property must have met the cases it is about.
    expect(refused).toBeGreaterThan(0);
    expect(refusedTogether).toBeGreaterThan(0);
  });
});
