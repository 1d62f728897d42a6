import { describe, expect, it } from 'vitest';
import { instanceType, pod } from '../../../scheduling/solver/testing/builders.js';
import { boundPod, claimSummary, cluster, managedNode, T0 } from '../../../testing/disruption-builders.js';
import { aNodePool } from '../../../testing/nodepool-builder.js';
import { computeDisruption } from '../compute-disruption.js';

describe('single-node consolidation', () => {
  it('replaces an on-demand node with a cheaper one, pinned to spot', () => {
    const n = managedNode('n');
    const result = computeDisruption(cluster({ nodes: [{ node: n, pods: [boundPod('a', 'n')] }] }), T0);
    expect(result.commands).toHaveLength(1);
    const [command] = result.commands;
    expect(command).toMatchObject({
      method: 'single-node-consolidation',
      candidates: ['n'],
      savingsPerHour: 0.13,
    });
    expect(command!.replacements.map(claimSummary)).toEqual([
      {
        nodePool: 'default',
        types: ['small', 'medium'],
        capacityTypes: ['spot'],
        zones: undefined,
        pods: ['default/a'],
        price: 0.07,
      },
    ]);
  });

  it('deletes a node whose pods fit elsewhere; the budget then blocks the rest', () => {
    const busy = managedNode('busy');
    const light = managedNode('light');
    const snapshot = cluster({
      pools: [
        aNodePool({
          metadata: { name: 'default' },
          spec: { disruption: { budgets: [{ nodes: '1', reasons: ['Underutilized'] }] } },
        }),
      ],
      nodes: [
        { node: busy, pods: [0, 1, 2].map((i) => boundPod(`b${i}`, 'busy')) },
        { node: light, pods: [boundPod('l', 'light')] },
      ],
    });
    const result = computeDisruption(snapshot, T0);
    expect(result.commands).toEqual([
      {
        method: 'single-node-consolidation',
        reason: 'Underutilized',
        candidates: ['light'],
        replacements: [],
        savingsPerHour: 0.2,
        moves: [{ pod: snapshot.capacity[1]!.pods[0], to: { node: 'busy' } }],
      },
    ]);
    expect(result.nodes.find((n) => n.node === 'busy')?.blockedBy).toBe(
      'the disruption budget of NodePool default allows 1 Underutilized disruption now, all taken by other nodes in this pass',
    );
  });

  it.each<[string, Parameters<typeof cluster>[0], string]>([
    [
      'pods that cannot move',
      {
        nodes: [
          {
            node: managedNode('n'),
            pods: [boundPod('pinned', 'n', { spec: { nodeSelector: { 'kubernetes.io/hostname': 'n' } } })],
          },
        ],
      },
      'not consolidated: its pods would not all reschedule: default/pinned: ',
    ],
    [
      'more than one new NodeClaim',
      {
        nodes: [
          {
            node: managedNode('n', { type: 'large' }),
            pods: ['x', 'y'].map((name) =>
              boundPod(name, 'n', {
                labels: { app: 'spread' },
                spec: {
                  affinity: {
                    podAntiAffinity: {
                      requiredDuringSchedulingIgnoredDuringExecution: [
                        {
                          labelSelector: { matchLabels: { app: 'spread' } },
                          topologyKey: 'kubernetes.io/hostname',
                        },
                      ],
                    },
                  },
                },
              }),
            ),
          },
        ],
      },
      'not consolidated: its pods would need 2 new NodeClaims; consolidation launches at most one',
    ],
    [
      'pending pods that would share the replacement',
      {
        nodes: [{ node: managedNode('n'), pods: [boundPod('a', 'n')] }],
        pending: [pod('waiting', { cpu: '8' })],
      },
      'not consolidated: no instance type that fits its pods and the 1 other pod waiting for capacity is cheaper than $0.2/h',
    ],
    [
      'spot to spot with too few cheaper types',
      { nodes: [{ node: managedNode('n', { capacityType: 'spot' }), pods: [boundPod('a', 'n')] }] },
      'not consolidated: spot-to-spot consolidation needs at least 15 cheaper spot instance types, found 1',
    ],
    [
      'minValues the cheaper types cannot meet',
      {
        pools: [
          aNodePool({
            metadata: { name: 'default' },
            spec: {
              template: {
                spec: {
                  requirements: [
                    {
                      key: 'node.kubernetes.io/instance-type',
                      operator: 'In',
                      values: ['small', 'medium', 'large'],
                      minValues: 3,
                    },
                  ],
                },
              },
            },
          }),
        ],
        nodes: [{ node: managedNode('n'), pods: [boundPod('a', 'n', { cpu: '1500m' })] }],
      },
      'not consolidated: the cheaper instance types would not meet minValues: node.kubernetes.io/instance-type needs 3 distinct values, they offer 2',
    ],
  ])('explains %s', (_, o, note) => {
    const result = computeDisruption(cluster(o), T0);
    expect(result.commands).toEqual([]);
    expect(result.nodes[0]?.note?.startsWith(note)).toBe(true);
    expect(result.nodes[0]?.disruptable).toBe(true);
  });

  it('spot to spot keeps the 15 cheapest of enough cheaper types, and can be switched off', () => {
    const types = Array.from({ length: 20 }, (_, i) =>
      instanceType(`t-${String(i).padStart(2, '0')}`, { cpu: '2', memory: '8Gi', price: 0.1 + i * 0.01 }),
    );
    types.push(instanceType('big', { cpu: '8', memory: '32Gi', price: 1 }));
    const snapshot = cluster({
      types,
      nodes: [{ node: managedNode('n', { type: 'big', capacityType: 'spot' }), pods: [boundPod('a', 'n')] }],
    });
    const [command] = computeDisruption(snapshot, T0).commands;
    const summary = claimSummary(command!.replacements[0]!);
    expect(summary.types).toEqual(types.slice(0, 15).map((t) => t.name));
    expect(summary.capacityTypes).toEqual(['spot']);
    expect(command!.savingsPerHour).toBe(0.63);
    const off = computeDisruption(snapshot, T0, { spotToSpotConsolidation: false });
    expect(off.commands).toEqual([]);
    expect(off.nodes[0]?.note).toBe('not consolidated: spot-to-spot consolidation is disabled');
  });
});
