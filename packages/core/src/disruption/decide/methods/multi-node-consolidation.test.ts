import { describe, expect, it } from 'vitest';
import {
  boundPod,
  claimSummary,
  cluster,
  managedNode,
  nodesWithPods,
  T0,
} from '../../../testing/disruption-builders.js';
import { aNodePool } from '../../../testing/nodepool-builder.js';
import { evaluateNodes } from '../candidates/evaluate.js';
import { computeDisruption } from '../compute-disruption.js';
import { consolidationOrder } from './consolidation.js';

/** NodePool `default` with a budget that allows every node: these tests are not about budgets. */
const everyNode = [aNodePool({ spec: { disruption: { budgets: [{ nodes: '100%' }] } } })];

describe('multi-node consolidation', () => {
  it('replaces several nodes with one cheaper node, keeping only types cheaper than the same type now', () => {
    // Four on-demand mediums ($0.2 each) with one 1-cpu pod each: one spot medium holds them all.
    const result = computeDisruption(cluster({ pools: everyNode, nodes: nodesWithPods('n', 4, 1, '1') }), T0);
    expect(result.commands).toHaveLength(1);
    const [command] = result.commands;
    expect(command).toMatchObject({
      method: 'multi-node-consolidation',
      reason: 'Underutilized',
      candidates: ['n-0', 'n-1', 'n-2', 'n-3'],
      savingsPerHour: 0.66,
    });
    // large (spot $0.56) is cheaper than the four nodes but not than one medium: filtered out.
    expect(command!.replacements.map(claimSummary)).toEqual([
      {
        nodePool: 'default',
        types: ['medium'],
        capacityTypes: ['spot'],
        zones: undefined,
        pods: ['default/n-0-p0', 'default/n-1-p0', 'default/n-2-p0', 'default/n-3-p0'],
        price: 0.14,
      },
    ]);
  });

  it('deletes the largest prefix whose pods fit on the rest', () => {
    // Three mediums with 1 cpu used, and a large that may not be disrupted: the mediums' pods
    // move onto the large. (Were it a candidate, all four would go for one spot medium.)
    const big = managedNode('big', { type: 'large', annotations: { 'karpenter.sh/do-not-disrupt': 'true' } });
    const snapshot = cluster({
      pools: everyNode,
      nodes: [
        ...nodesWithPods('m', 3, 1, '1'),
        { node: big, pods: [boundPod('big-p0', 'big', { cpu: '1' })] },
      ],
    });
    const [command] = computeDisruption(snapshot, T0).commands;
    expect(command).toMatchObject({
      method: 'multi-node-consolidation',
      candidates: ['m-0', 'm-1', 'm-2'],
      replacements: [],
      savingsPerHour: 0.6,
    });
    expect(new Set(command!.moves.map((m) => JSON.stringify(m.to)))).toEqual(
      new Set([JSON.stringify({ node: 'big' })]),
    );
  });

  it('never takes more nodes of a NodePool than its budget allows', () => {
    const snapshot = cluster({
      nodes: nodesWithPods('n', 5, 1, '1'),
      pools: [
        aNodePool({ metadata: { name: 'default' }, spec: { disruption: { budgets: [{ nodes: '40%' }] } } }),
      ],
    });
    const result = computeDisruption(snapshot, T0);
    expect(result.commands.map((c) => [c.method, c.candidates.length])).toEqual([
      ['multi-node-consolidation', 2],
    ]);
    const blocked = result.nodes.filter((n) => !n.disruptable).map((n) => n.blockedBy);
    expect(blocked).toEqual(
      Array(3).fill(
        'the disruption budget of NodePool default allows 2 Underutilized disruptions now, all taken by other nodes in this pass',
      ),
    );
  });

  it('orders candidates by price per disruption cost', () => {
    const cheapToMove = managedNode('cheap-to-move');
    const costly = managedNode('costly');
    const snapshot = cluster({
      nodes: [
        {
          node: costly,
          pods: [boundPod('c0', 'costly'), boundPod('c1', 'costly'), boundPod('c2', 'costly')],
        },
        { node: cheapToMove, pods: [boundPod('p', 'cheap-to-move', { priority: -(2 ** 25) * 0.5 })] },
        { node: managedNode('small-node', { type: 'small' }), pods: [boundPod('s', 'small-node')] },
      ],
    });
    const order = consolidationOrder(evaluateNodes(snapshot, T0).map((e) => e.candidate!));
    // 0.2 / 0.5, 0.1 / 1, 0.2 / 3
    expect(order.map((c) => c.name)).toEqual(['cheap-to-move', 'small-node', 'costly']);
  });

  it('does not replace nodes with one that costs as much', () => {
    // Two spot smalls ($0.07 each), 1.5 cpu used on each: together they need a medium, whose spot
    // price ($0.14) is what the two cost now; alone, each needs a small like itself.
    const snapshot = cluster({
      nodes: [0, 1].map((i) => ({
        node: managedNode(`s-${i}`, { type: 'small', capacityType: 'spot' }),
        pods: [boundPod(`s-${i}-p`, `s-${i}`, { cpu: '1500m' })],
      })),
    });
    const result = computeDisruption(snapshot, T0);
    expect(result.commands).toEqual([]);
    // Alone, each node's pod has no room elsewhere and nothing cheaper could hold it: single-node
    // consolidation knows that without simulating.
    expect(result.nodes.map((n) => n.note)).toEqual([
      'not consolidated: its pod default/s-0-p fits on no other initialized node, and no instance type that could hold it is cheaper than $0.07/h',
      'not consolidated: its pod default/s-1-p fits on no other initialized node, and no instance type that could hold it is cheaper than $0.07/h',
    ]);
  });

  describe('pods with a soft zone spread (ScheduleAnyway)', () => {
    // One 1-cpu web pod on each of two on-demand mediums ($0.2 each) in zones a and b. Held as a
    // requirement, the spread (maxSkew 1) sends the two moved pods to two new NodeClaims in two
    // zones, so the pair cannot be replaced by one node; kube-scheduler only scores it.
    const web = (whenUnsatisfiable: 'ScheduleAnyway' | 'DoNotSchedule') =>
      cluster({
        pools: everyNode,
        nodes: ['a', 'b'].map((zone) => ({
          node: managedNode(`n-${zone}`, { zone: `zone-${zone}` }),
          pods: [
            boundPod(`web-${zone}`, `n-${zone}`, {
              labels: { app: 'web' },
              spec: {
                topologySpreadConstraints: [
                  {
                    maxSkew: 1,
                    topologyKey: 'topology.kubernetes.io/zone',
                    whenUnsatisfiable,
                    labelSelector: { matchLabels: { app: 'web' } },
                  },
                ],
              },
            }),
          ],
        })),
      });

    it('replaces both nodes with one when only the preference stood in the way', () => {
      const [command] = computeDisruption(web('ScheduleAnyway'), T0).commands;
      expect(command).toMatchObject({ method: 'multi-node-consolidation', candidates: ['n-a', 'n-b'] });
      expect(command!.replacements.map(claimSummary)).toEqual([
        expect.objectContaining({
          capacityTypes: ['spot'],
          pods: ['default/web-a', 'default/web-b'],
          price: 0.07,
        }),
      ]);
      expect(command!.savingsPerHour).toBe(0.33);
    });

    it('keeps the preference as a requirement with consolidationPreferences Respect (upstream)', () => {
      const result = computeDisruption(web('ScheduleAnyway'), T0, { consolidationPreferences: 'Respect' });
      expect(result.commands.map((c) => [c.method, c.candidates])).toEqual([
        ['single-node-consolidation', ['n-a']],
      ]);
    });

    it('never relaxes a DoNotSchedule spread', () => {
      const result = computeDisruption(web('DoNotSchedule'), T0);
      expect(result.commands.map((c) => [c.method, c.candidates])).toEqual([
        ['single-node-consolidation', ['n-a']],
      ]);
    });
  });
});
