import { describe, expect, it } from 'vitest';
import { boundPod, cluster, managedNode, nodesWithPods, T0 } from '../../../testing/disruption-builders.js';
import { aNodePool } from '../../../testing/nodepool-builder.js';
import { computeDisruption } from '../compute-disruption.js';

/** NodePool `default` with a budget that allows every node: these tests are not about budgets. */
const everyNode = [aNodePool({ spec: { disruption: { budgets: [{ nodes: '100%' }] } } })];

const empties = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ node: managedNode(`empty-${i}`) }));

describe('emptiness', () => {
  it('deletes every empty node in one command, DaemonSet pods aside', () => {
    const ds = managedNode('with-daemon');
    const snapshot = cluster({
      pools: everyNode,
      nodes: [
        ...empties(2),
        {
          node: ds,
          pods: [boundPod('agent', 'with-daemon', { owner: { kind: 'DaemonSet', name: 'agent' } })],
        },
        ...nodesWithPods('busy', 1, 1, '1'),
      ],
    });
    const result = computeDisruption(snapshot, T0);
    expect(result.commands).toEqual([
      {
        method: 'emptiness',
        reason: 'Empty',
        candidates: ['empty-0', 'empty-1', 'with-daemon'],
        replacements: [],
        savingsPerHour: 0.6,
        moves: [],
      },
    ]);
    expect(result.nodes.find((n) => n.node === 'busy-0')).toEqual({
      node: 'busy-0',
      nodePool: 'default',
      disruptable: true,
      reasons: ['Underutilized'],
      pricePerHour: 0.2,
    });
  });

  it('stops at the budget and says so for the rest', () => {
    const snapshot = cluster({
      nodes: empties(3),
      pools: [
        aNodePool({ metadata: { name: 'default' }, spec: { disruption: { budgets: [{ nodes: '1' }] } } }),
      ],
    });
    const result = computeDisruption(snapshot, T0);
    expect(result.commands.map((c) => c.candidates)).toEqual([['empty-0']]);
    expect(result.nodes.map((n) => [n.node, n.disruptable, n.blockedBy])).toEqual([
      ['empty-0', true, undefined],
      [
        'empty-1',
        false,
        'the disruption budget of NodePool default allows 1 Empty disruption now, all taken by other nodes in this pass',
      ],
      [
        'empty-2',
        false,
        'the disruption budget of NodePool default allows 1 Empty disruption now, all taken by other nodes in this pass',
      ],
    ]);
  });

  it('a budget closed for Empty leaves empty nodes alone, with the budget named', () => {
    const snapshot = cluster({
      nodes: empties(2),
      pools: [
        aNodePool({
          metadata: { name: 'default' },
          spec: { disruption: { budgets: [{ nodes: '100%' }, { nodes: '0', reasons: ['Empty'] }] } },
        }),
      ],
    });
    const result = computeDisruption(snapshot, T0);
    expect(result.commands).toEqual([]);
    expect(result.nodes[0]).toMatchObject({
      disruptable: false,
      blockedBy:
        'the disruption budget of NodePool default allows no Empty disruptions now (budgets[1]: nodes "0", reasons Empty, 2 nodes)',
    });
  });

  it('WhenEmpty still removes empty nodes', () => {
    const snapshot = cluster({
      nodes: empties(1),
      pools: [
        aNodePool({
          metadata: { name: 'default' },
          spec: { disruption: { consolidationPolicy: 'WhenEmpty' } },
        }),
      ],
    });
    expect(computeDisruption(snapshot, T0).commands.map((c) => c.method)).toEqual(['emptiness']);
  });

  it('budgets count per NodePool', () => {
    const snapshot = cluster({
      nodes: [
        { node: managedNode('a-0', { pool: 'a' }) },
        { node: managedNode('a-1', { pool: 'a' }) },
        { node: managedNode('b-0', { pool: 'b' }) },
        { node: managedNode('b-1', { pool: 'b' }) },
      ],
      pools: [
        aNodePool({ metadata: { name: 'a' }, spec: { disruption: { budgets: [{ nodes: '50%' }] } } }),
        aNodePool({ metadata: { name: 'b' }, spec: { disruption: { budgets: [{ nodes: '0' }] } } }),
      ],
    });
    expect(computeDisruption(snapshot, T0).commands.map((c) => c.candidates)).toEqual([['a-0']]);
  });
});
