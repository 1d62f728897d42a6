import { describe, expect, it } from 'vitest';
import {
  boundPod,
  claimFor,
  claimSummary,
  cluster,
  managedNode,
  T0,
} from '../../../testing/disruption-builders.js';
import { aNodePool } from '../../../testing/nodepool-builder.js';
import { computeDisruption } from '../compute-disruption.js';

const zoneB = aNodePool({
  metadata: { name: 'default' },
  spec: {
    template: {
      spec: { requirements: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['zone-b'] }] },
    },
  },
});

function drifted(name: string, since: string) {
  const node = managedNode(name, { zone: 'zone-b' });
  return {
    node,
    claim: claimFor(node, {
      conditions: [
        { type: 'Initialized', status: 'True' },
        { type: 'Drifted', status: 'True', lastTransitionTime: since },
      ],
    }),
  };
}

describe('drift', () => {
  it('replaces a drifted node with NodeClaims for its pods', () => {
    const old = managedNode('old'); // zone-a, which the NodePool no longer allows
    const full = managedNode('full', { zone: 'zone-b' });
    const snapshot = cluster({
      pools: [zoneB],
      nodes: [
        { node: old, pods: [boundPod('a', 'old', { cpu: '1' }), boundPod('b', 'old', { cpu: '1' })] },
        { node: full, pods: [boundPod('c', 'full', { cpu: '3500m' })] },
      ],
    });
    const result = computeDisruption(snapshot, T0);
    expect(result.commands).toHaveLength(1);
    const [command] = result.commands;
    expect(command).toMatchObject({ method: 'drift', reason: 'Drifted', candidates: ['old'] });
    expect(command!.replacements.map(claimSummary)).toEqual([
      {
        nodePool: 'default',
        types: ['small', 'medium', 'large'],
        capacityTypes: ['on-demand', 'spot'],
        zones: ['zone-b'],
        pods: ['default/a', 'default/b'],
        price: 0.07,
      },
    ]);
    expect(command!.savingsPerHour).toBe(0.13);
    expect(command!.moves.map((m) => [m.pod.metadata.name, m.to])).toEqual([
      ['a', { replacement: 0 }],
      ['b', { replacement: 0 }],
    ]);
    expect(result.nodes.find((n) => n.node === 'old')).toMatchObject({
      disruptable: true,
      reasons: ['Underutilized', 'Drifted'],
      drifted:
        "NodePool default requirements no longer match the node's labels: key topology.kubernetes.io/zone: In [zone-b] does not intersect In [zone-a]",
    });
  });

  it('takes empty drifted nodes together, oldest drift first, within budget', () => {
    const snapshot = cluster({
      pools: [
        aNodePool({
          metadata: { name: 'default' },
          spec: {
            disruption: { budgets: [{ nodes: '2', reasons: ['Drifted'] }], consolidateAfter: 'Never' },
          },
        }),
      ],
      nodes: [
        drifted('c', '2024-05-01T11:00:00Z'),
        drifted('a', '2024-05-01T10:00:00Z'),
        drifted('b', '2024-05-01T09:00:00Z'),
      ],
    });
    const result = computeDisruption(snapshot, T0);
    expect(result.commands).toEqual([
      {
        method: 'drift',
        reason: 'Drifted',
        candidates: ['b', 'a'],
        replacements: [],
        savingsPerHour: 0.4,
        moves: [],
      },
    ]);
    expect(result.nodes.find((n) => n.node === 'c')?.blockedBy).toBe(
      'the disruption budget of NodePool default allows 2 Drifted disruptions now, all taken by other nodes in this pass',
    );
  });

  it('skips a drifted node whose pods cannot move and tries the next', () => {
    const stuck = drifted('stuck', '2024-05-01T09:00:00Z');
    const movable = drifted('movable', '2024-05-01T10:00:00Z');
    const snapshot = cluster({
      nodes: [
        {
          ...stuck,
          pods: [
            boundPod('pinned', 'stuck', { spec: { nodeSelector: { 'kubernetes.io/hostname': 'stuck' } } }),
          ],
        },
        { ...movable, pods: [boundPod('web', 'movable')] },
      ],
    });
    const result = computeDisruption(snapshot, T0);
    expect(result.commands.map((c) => [c.method, c.candidates])).toEqual([['drift', ['movable']]]);
    expect(result.nodes.find((n) => n.node === 'stuck')?.note).toMatch(
      /^drifted, but its pods would not all reschedule: default\/pinned: /,
    );
  });

  it('runs after emptiness: an empty node wins the pass', () => {
    const snapshot = cluster({
      nodes: [
        { node: managedNode('idle') },
        { ...drifted('d', '2024-05-01T10:00:00Z'), pods: [boundPod('x', 'd')] },
      ],
    });
    expect(computeDisruption(snapshot, T0).commands.map((c) => c.method)).toEqual(['emptiness']);
  });
});
