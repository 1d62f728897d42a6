import { describe, expect, it } from 'vitest';
import { boundPod, claimFor, cluster, managedNode, T0 } from '../../../testing/disruption-builders.js';
import { aNodePool } from '../../../testing/nodepool-builder.js';
import { computeDisruption } from '../compute-disruption.js';
import { disruptionSnapshotOf } from '../snapshot.js';
import { canProvision, simulateRescheduling } from './simulate-rescheduling.js';

const names = (pods: readonly { metadata: { name: string } }[]) => pods.map((p) => p.metadata.name);

describe('simulateRescheduling', () => {
  it("moves the candidates' reschedulable pods and leaves DaemonSet pods behind", () => {
    const snapshot = cluster({
      nodes: [
        {
          node: managedNode('a'),
          pods: [
            boundPod('web', 'a'),
            boundPod('agent', 'a', { owner: { kind: 'DaemonSet', name: 'agent' } }),
          ],
        },
        { node: managedNode('b') },
      ],
    });
    const sim = simulateRescheduling(snapshot, new Set(['a']));
    expect(sim.failures).toEqual([]);
    expect(sim.newClaims).toEqual([]);
    expect(sim.moves.map((m) => [m.pod.metadata.name, m.to])).toEqual([['web', { node: 'b' }]]);
  });

  it('does not count a move onto a node that is not initialized yet', () => {
    // The claim says Initialized, but the Node lacks karpenter.sh/initialized: as in Karpenter,
    // the label decides, so the move is refused.
    const booting = managedNode('booting', { initialized: false });
    const snapshot = cluster({
      types: [],
      nodes: [
        { node: managedNode('a'), pods: [boundPod('web', 'a')] },
        { node: booting, claim: claimFor(booting) },
      ],
    });
    const sim = simulateRescheduling(snapshot, new Set(['a']));
    expect(sim.failures.map((f) => [f.pod.metadata.name, f.reason])).toEqual([
      ['web', 'would move to booting, which is not initialized yet'],
    ]);
  });

  it('pods of nodes already deleting must move too, and take room first', () => {
    const snapshot = cluster({
      types: [],
      nodes: [
        { node: managedNode('a'), pods: [boundPod('a0', 'a', { cpu: '2' })] },
        { node: managedNode('going', { deleting: true }), pods: [boundPod('g0', 'going', { cpu: '3' })] },
        { node: managedNode('b') },
      ],
    });
    const sim = simulateRescheduling(snapshot, new Set(['a']));
    // b has 4 cpu: g0 (3, placed first as the larger) fits, a0 (2) then does not.
    expect(names(sim.failures.map((f) => f.pod))).toEqual(['a0']);
    const marked = cluster({
      types: [],
      nodes: [
        { node: managedNode('a'), pods: [boundPod('a0', 'a', { cpu: '2' })] },
        { node: managedNode('b'), pods: [boundPod('b0', 'b', { cpu: '3' })] },
        { node: managedNode('c') },
      ],
    });
    // Without the mark a0 fits on c; with b marked by an earlier command, b0 takes c first.
    expect(simulateRescheduling(marked, new Set(['a'])).failures).toEqual([]);
    const withMark = { ...marked, markedForDeletion: new Set(['b']) };
    expect(names(simulateRescheduling(withMark, new Set(['a'])).failures.map((f) => f.pod))).toEqual(['a0']);
    expect(computeDisruption(withMark, T0).nodes.find((n) => n.node === 'b')?.blockedBy).toBe(
      'node is already being disrupted by an earlier command',
    );
  });

  it('launches only from NodePools that can provision', () => {
    const p = aNodePool({ metadata: { name: 'default' } });
    expect(canProvision(p)).toBe(true);
    expect(canProvision(aNodePool({ metadata: { name: 'static' }, spec: { replicas: 2 } }))).toBe(false);
    expect(
      canProvision({ ...p, metadata: { ...p.metadata, deletionTimestamp: '2024-05-01T00:00:00Z' } }),
    ).toBe(false);
  });
});

describe('disruptionSnapshotOf', () => {
  it('takes the provisioning input and adds every NodePool and the PDBs', () => {
    const base = cluster({ nodes: [{ node: managedNode('a') }], pending: [boundPod('p', '')] });
    const input = {
      pods: base.pendingPods,
      existing: base.capacity,
      daemonSets: [],
      nodePools: [],
      instanceTypes: base.instanceTypes,
    };
    const pools = [aNodePool({ metadata: { name: 'default' } })];
    const snapshot = disruptionSnapshotOf(input, { nodePools: pools, podDisruptionBudgets: [] });
    expect(snapshot).toEqual({
      capacity: base.capacity,
      pendingPods: base.pendingPods,
      nodePools: pools,
      instanceTypes: base.instanceTypes,
      daemonSets: [],
      podDisruptionBudgets: [],
    });
  });
});
