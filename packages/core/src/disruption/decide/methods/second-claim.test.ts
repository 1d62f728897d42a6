import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseResourceList } from '../../../scheduling/resources/resource-list.js';
import { standardTypes } from '../../../scheduling/solver/testing/builders.js';
import {
  boundPod,
  cluster,
  managedNode,
  podsThatFit,
  T0,
  type TestNode,
} from '../../../testing/disruption-builders.js';
import type { BudgetLedger } from '../budgets/budget-mapping.js';
import { type Candidate, evaluateNodes } from '../candidates/evaluate.js';
import { type DisruptionSnapshot, resolveDisruptionOptions } from '../snapshot.js';
import { computeConsolidation } from './consolidation.js';
import type { MethodContext } from './method.js';
import { NodeRoom, placesIn } from './node-room.js';
import { secondClaimNeeded } from './second-claim.js';

const requests = (cpu: string, memory = '1Gi') => parseResourceList({ cpu, memory });

function candidates(snapshot: DisruptionSnapshot): Candidate[] {
  return evaluateNodes(snapshot, T0).flatMap((e) => (e.candidate === undefined ? [] : [e.candidate]));
}

/** The standard types up to and including `largest` (small 2, medium 4, large 16 cpu). */
function typesUpTo(largest: 'small' | 'medium' | 'large') {
  const order = ['small', 'medium', 'large'];
  return standardTypes().filter((t) => order.indexOf(t.name) <= order.indexOf(largest));
}

describe('NodeRoom.places', () => {
  it('counts per node how many of the smallest pod fit, by its scarcest resource', () => {
    expect(placesIn(requests('4', '16Gi'), requests('1500m'))).toBe(2);
    expect(placesIn(requests('4', '2Gi'), requests('1500m'))).toBe(2);
    expect(placesIn(requests('4', '1536Mi'), requests('1500m'))).toBe(1);
    expect(placesIn(requests('1', '16Gi'), requests('1500m'))).toBe(0);
    expect(placesIn(requests('-1', '16Gi'), requests('1500m'))).toBe(0);
    // A pod that asks nothing fits any number of times.
    expect(placesIn(requests('1'), parseResourceList({ cpu: '0' }))).toBe(Number.POSITIVE_INFINITY);
  });

  it('sums the other initialized nodes, leaving out those named, deleting, not initialized or overcommitted', () => {
    const snapshot = cluster({
      nodes: [
        // 4 cpu medium nodes: 3.5, 2.4 and 0.9 cpu left.
        { node: managedNode('a'), pods: [boundPod('a', 'a', { cpu: '500m' })] },
        { node: managedNode('b'), pods: [boundPod('b', 'b', { cpu: '1600m' })] },
        { node: managedNode('c'), pods: [boundPod('c', 'c', { cpu: '3100m' })] },
        { node: managedNode('going', { deleting: true }), pods: [] },
        { node: managedNode('starting'), pods: [], initialized: false },
        { node: managedNode('over'), pods: [boundPod('o', 'over', { cpu: '100m', memory: '40Gi' })] },
      ],
    });
    const room = new NodeRoom(snapshot);
    expect(room.places(requests('1'), new Set())).toBe(3 + 2);
    expect(room.places(requests('1500m'), new Set())).toBe(2 + 1);
    expect(room.places(requests('1500m'), new Set(['a']))).toBe(1);
    expect(room.places(requests('4'), new Set())).toBe(0);
  });
});

describe('secondClaimNeeded', () => {
  /** `count` candidates with one pod of `cpu` each, beside a node with 1.5 cpu left. */
  function movers(count: number, cpu: string, largest: 'small' | 'medium' | 'large'): DisruptionSnapshot {
    const nodes: TestNode[] = Array.from({ length: count }, (_, i) => ({
      node: managedNode(`n${i}`),
      pods: [boundPod(`p${i}`, `n${i}`, { cpu })],
    }));
    nodes.push({ node: managedNode('rest'), pods: [boundPod('r', 'rest', { cpu: '2500m' })] });
    return cluster({ nodes, types: typesUpTo(largest) });
  }

  it('turns away a set whose pods the other nodes and one new node cannot hold, as the simulation does', () => {
    const snapshot = movers(3, '2500m', 'medium');
    const set = candidates(snapshot).filter((c) => c.name !== 'rest');
    expect(set).toHaveLength(3);
    const why = secondClaimNeeded(set, snapshot, new NodeRoom(snapshot));
    expect(why).toBe(
      'its 3 pods need more than one new NodeClaim: the other initialized nodes have room for at most 0 of them and one new node for at most 1',
    );
    const context: MethodContext = {
      snapshot,
      options: resolveDisruptionOptions({}),
      budgets: {} as BudgetLedger,
    };
    expect(computeConsolidation('multi-node-consolidation', set, context)).toHaveProperty('why');
  });

  it('leaves the set to the simulation when one large node could take them, or the others have room', () => {
    const large = movers(3, '2500m', 'large');
    const set = candidates(large).filter((c) => c.name !== 'rest');
    expect(secondClaimNeeded(set, large, new NodeRoom(large))).toBeUndefined();
    // Two of 1.5 cpu: one to the node with 1.5 left, one to a new medium.
    const small = movers(2, '1500m', 'medium');
    expect(
      secondClaimNeeded(
        candidates(small).filter((c) => c.name !== 'rest'),
        small,
        new NodeRoom(small),
      ),
    ).toBeUndefined();
  });

  it('is for several nodes only: one node is single-node consolidation, screened by noCheaperHome', () => {
    const snapshot = movers(1, '3', 'small');
    const set = candidates(snapshot).filter((c) => c.name === 'n0');
    expect(secondClaimNeeded(set, snapshot, new NodeRoom(snapshot))).toBeUndefined();
  });

  it('never turns away a set the simulation would consolidate (property)', () => {
    const podCpu = fc.constantFrom('500m', '1', '1500m', '2500m', '3');
    const node = fc.record({
      type: fc.constantFrom('small', 'medium'),
      initialized: fc.integer({ min: 0, max: 4 }).map((x) => x !== 0),
      pods: fc.array(podCpu, { maxLength: 3 }),
    });
    const scenario = fc.record({
      nodes: fc.array(node, { minLength: 2, maxLength: 7 }),
      largest: fc.constantFrom<'small' | 'medium' | 'large'>('small', 'medium', 'large'),
    });
    let refused = 0;
    let simulatedOnly = 0;
    fc.assert(
      fc.property(scenario, ({ nodes, largest }) => {
        const testNodes: TestNode[] = nodes.map((n, i) => {
          const name = `node-${i}`;
          const pods = podsThatFit(name, n.type, n.pods);
          return { node: managedNode(name, { type: n.type }), pods, initialized: n.initialized };
        });
        const snapshot = cluster({ nodes: testNodes, types: typesUpTo(largest) });
        const context: MethodContext = {
          snapshot,
          options: resolveDisruptionOptions({}),
          budgets: {} as BudgetLedger,
        };
        const room = new NodeRoom(snapshot);
        const all = candidates(snapshot).filter((c) => c.node.reschedulable.length > 0);
        // Prefixes of two or more, as multi-node consolidation's binary search tries them.
        for (let size = 2; size <= all.length; size++) {
          const set = all.slice(0, size);
          const simulated = computeConsolidation('multi-node-consolidation', set, context);
          const screened = computeConsolidation('multi-node-consolidation', set, { ...context, room });
          if (secondClaimNeeded(set, snapshot, room) !== undefined) {
            refused++;
            expect('command' in simulated).toBe(false);
          } else if (!('command' in simulated) && simulated.why.includes('new NodeClaims')) simulatedOnly++;
          expect('command' in screened ? screened.command : undefined).toEqual(
            'command' in simulated ? simulated.command : undefined,
          );
        }
      }),
      { numRuns: 300 },
    );
    // The property must have met the case it is about, and the screen is a bound, not the solver.
    expect(refused).toBeGreaterThan(0);
    expect(simulatedOnly).toBeGreaterThan(0);
  });
});
