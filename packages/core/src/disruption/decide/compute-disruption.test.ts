import { describe, expect, it } from 'vitest';
import {
  boundPod,
  claimFor,
  cluster,
  managedNode,
  nodesWithPods,
  pdb,
  T0,
} from '../../testing/disruption-builders.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { computeDisruption, DisruptionMethods } from './compute-disruption.js';

describe('computeDisruption', () => {
  it('tries the methods in upstream order', () => {
    expect(DisruptionMethods.map((m) => [m.name, m.reason, m.disruptionClass])).toEqual([
      ['emptiness', 'Empty', 'graceful'],
      ['drift', 'Drifted', 'eventual'],
      ['multi-node-consolidation', 'Underutilized', 'graceful'],
      ['single-node-consolidation', 'Underutilized', 'graceful'],
    ]);
  });

  it('reports the methods it ran up to the one that decided, timed only when given a timer', () => {
    const snapshot = cluster({
      nodes: [{ node: managedNode('idle') }, { node: managedNode('busy'), pods: [boundPod('web', 'busy')] }],
    });
    const untimed = computeDisruption(snapshot, T0);
    expect(untimed.commands[0]?.method).toBe('emptiness');
    expect(untimed.evaluated).toEqual([{ method: 'emptiness', reason: 'Empty' }]);
    let ms = 0;
    const timed = computeDisruption(snapshot, T0, { elapsedMs: () => (ms += 250) });
    expect(timed.evaluated).toEqual([{ method: 'emptiness', reason: 'Empty', seconds: 0.25 }]);
    // One node's pods: emptiness and drift find nothing, so consolidation runs too.
    const busy = computeDisruption(
      cluster({ nodes: [{ node: managedNode('busy'), pods: [boundPod('web', 'busy')] }] }),
      T0,
    );
    const names = DisruptionMethods.map((m) => m.name);
    const decidedAt =
      busy.commands[0] === undefined ? names.length - 1 : names.indexOf(busy.commands[0].method);
    expect(decidedAt).toBeGreaterThan(1);
    expect(busy.evaluated.map((e) => e.method)).toEqual(names.slice(0, decidedAt + 1));
  });

  it('explains every managed node, disruptable or not', () => {
    const db = managedNode('db-node');
    const fresh = managedNode('fresh', { created: '2024-05-01T11:58:00Z' });
    const booting = managedNode('booting', { initialized: false });
    const snapshot = cluster({
      pools: [
        aNodePool({
          metadata: { name: 'default' },
          spec: { disruption: { consolidateAfter: '5m', budgets: [{ nodes: '100%' }] } },
        }),
      ],
      nodes: [
        { node: db, pods: [boundPod('db-0', 'db-node', { labels: { app: 'db' } })] },
        { node: fresh },
        {
          node: booting,
          claim: claimFor(booting, { conditions: [{ type: 'Initialized', status: 'Unknown' }] }),
        },
        ...nodesWithPods('web', 2, 1, '1'),
      ],
      pdbs: [pdb('db', { matchLabels: { app: 'db' }, disruptionsAllowed: 0 })],
    });
    const result = computeDisruption(snapshot, T0);
    expect(result.commands.map((c) => [c.method, c.candidates])).toEqual([
      ['multi-node-consolidation', ['web-0', 'web-1']],
    ]);
    expect(
      result.nodes.map(({ node, disruptable, blockedBy }) => ({ node, disruptable, blockedBy })),
    ).toEqual([
      {
        node: 'booting',
        disruptable: false,
        blockedBy: 'node is not initialized yet',
      },
      {
        node: 'db-node',
        disruptable: false,
        blockedBy: 'pod default/db-0 is protected by PodDisruptionBudget default/db (0 disruptions allowed)',
      },
      {
        node: 'fresh',
        disruptable: false,
        blockedBy:
          'consolidateAfter 5m has not passed since the node was created (2024-05-01T11:58:00Z); consolidatable from 2024-05-01T12:03:00Z',
      },
      { node: 'web-0', disruptable: true, blockedBy: undefined },
      { node: 'web-1', disruptable: true, blockedBy: undefined },
    ]);
  });

  it('a cron budget forbids consolidation during business hours only', () => {
    const snapshot = cluster({
      pools: [
        aNodePool({
          metadata: { name: 'default' },
          spec: {
            disruption: {
              budgets: [
                { nodes: '0', schedule: '0 9 * * mon-fri', duration: '8h', reasons: ['Underutilized'] },
              ],
            },
          },
        }),
      ],
      nodes: nodesWithPods('n', 2, 1, '1'),
    });
    const noon = computeDisruption(snapshot, T0);
    expect(noon.commands).toEqual([]);
    expect(noon.nodes[0]?.blockedBy).toBe(
      'the disruption budget of NodePool default allows no Underutilized disruptions now (budgets[0]: nodes "0", schedule "0 9 * * mon-fri" for 8h, reasons Underutilized, 2 nodes)',
    );
    const evening = computeDisruption(snapshot, Date.parse('2024-05-01T17:00:00Z'));
    expect(evening.commands.map((c) => c.method)).toEqual(['multi-node-consolidation']);
  });

  it('nodes already NotReady or deleting use up the allowance', () => {
    const snapshot = cluster({
      pools: [
        aNodePool({ metadata: { name: 'default' }, spec: { disruption: { budgets: [{ nodes: '1' }] } } }),
      ],
      nodes: [{ node: managedNode('sick', { ready: false }) }, { node: managedNode('idle') }],
    });
    const result = computeDisruption(snapshot, T0);
    expect(result.commands).toEqual([]);
    expect(result.nodes.find((n) => n.node === 'idle')?.blockedBy).toBe(
      'the disruption budget of NodePool default allows 1 Empty disruption of 2 nodes (budgets[0]: nodes "1"), used by 1 node already NotReady or deleting (sick)',
    );
    expect(result.budgets.find((b) => b.reason === 'Empty')).toMatchObject({
      nodePool: 'default',
      allowed: 0,
    });
  });

  it('a managed node without karpenter.sh/initialized is not in the budget total', () => {
    // Every claim says Initialized; only two Nodes carry the label. 50 % of 2 initialized nodes
    // is 1 (counting all four would allow 2).
    const nodes = ['a', 'b', 'c', 'd'].map((name) => {
      const node = managedNode(name, { initialized: name === 'a' || name === 'b' });
      return { node, claim: claimFor(node) };
    });
    const snapshot = cluster({
      pools: [
        aNodePool({ metadata: { name: 'default' }, spec: { disruption: { budgets: [{ nodes: '50%' }] } } }),
      ],
      nodes,
    });
    const result = computeDisruption(snapshot, T0);
    expect(result.commands.map((c) => [c.method, c.candidates])).toEqual([['emptiness', ['a']]]);
    expect(result.budgets.find((b) => b.reason === 'Empty')).toMatchObject({
      nodePool: 'default',
      allowed: 1,
    });
    expect(result.nodes.find((n) => n.node === 'c')?.blockedBy).toBe('node is not initialized yet');
  });

  it('a pending pod takes the room a moved pod would need', () => {
    // The NodePool cannot launch (not Ready), so a's pod can only move to b's 2 free cpu.
    const p = aNodePool({ metadata: { name: 'default' } });
    const notReady = {
      ...p,
      status: {
        nodes: 2,
        conditions: [
          {
            type: 'Ready',
            status: 'False' as const,
            reason: 'NodeClassNotReady',
            message: '',
            lastTransitionTime: '2024-05-01T00:00:00Z',
          },
        ],
      },
    };
    const nodes = [
      { node: managedNode('a'), pods: [boundPod('a0', 'a', { cpu: '1' })] },
      {
        node: managedNode('b', { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }),
        pods: [boundPod('b0', 'b', { cpu: '2' })],
      },
    ];
    const alone = computeDisruption(cluster({ pools: [notReady], nodes }), T0);
    expect(alone.commands.map((c) => [c.method, c.candidates, c.replacements.length])).toEqual([
      ['single-node-consolidation', ['a'], 0],
    ]);
    // A pending 2-cpu pod is placed first (largest first) and takes b's room.
    const crowded = computeDisruption(
      cluster({ pools: [notReady], nodes, pending: [boundPod('waiting', '', { cpu: '2' })] }),
      T0,
    );
    expect(crowded.commands).toEqual([]);
    expect(crowded.nodes.find((n) => n.node === 'a')?.note).toMatch(
      /^not consolidated: its pods would not all reschedule: default\/a0: /,
    );
  });

  it('under consolidationPolicy Balanced, consolidates a node only when the savings outweigh half its disruption', () => {
    // Four medium nodes: b, c and d are kept (do-not-disrupt) and have 1 cpu free each; a holds
    // `n` pods of 125m that fit there. Deleting a saves a quarter of the pool's cost.
    const kept = (name: string) => ({
      node: managedNode(name, { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }),
      pods: [boundPod(`${name}0`, name, { cpu: '3' })],
    });
    const nodesWith = (n: number) => [
      {
        node: managedNode('a'),
        pods: Array.from({ length: n }, (_, i) => boundPod(`a${i}`, 'a', { cpu: '125m' })),
      },
      kept('b'),
      kept('c'),
      kept('d'),
    ];
    const pool = (consolidationPolicy: 'Balanced' | 'WhenEmptyOrUnderutilized') =>
      aNodePool({ metadata: { name: 'default' }, spec: { disruption: { consolidationPolicy } } });
    const decided = (policy: 'Balanced' | 'WhenEmptyOrUnderutilized', n: number) =>
      computeDisruption(cluster({ pools: [pool(policy)], nodes: nodesWith(n) }), T0);

    // 8 pods: a's disruption is 9 of the pool's 15 (60 %) for 25 % of its cost: score 0.42.
    expect(decided('WhenEmptyOrUnderutilized', 8).commands.map((c) => c.candidates)).toEqual([['a']]);
    const balanced = decided('Balanced', 8);
    expect(balanced.commands).toEqual([]);
    expect(balanced.nodes.find((n) => n.node === 'a')?.note).toContain(
      "NodePool default has consolidationPolicy Balanced and the move scores 0.417, below 0.5: it saves 25 % of the pool's cost for 60 % of its disruption",
    );
    // 2 pods: 3 of 9 (33 %) for 25 %: score 0.75, consolidated.
    expect(decided('Balanced', 2).commands.map((c) => c.candidates)).toEqual([['a']]);

    // The moves scored, for karpenter_consolidation_moves_total and _score.
    expect(decided('WhenEmptyOrUnderutilized', 8).scoredMoves).toEqual([
      { decision: 'approved', nodePool: 'default', policy: 'WhenEmptyOrUnderutilized' },
    ]);
    // Turned away before any simulation (deleting is the best case and fails), so not a move, as
    // Karpenter skips a candidate that cannot pass its threshold.
    expect(balanced.scoredMoves).toEqual([]);
    expect(balanced.nodes.find((n) => n.node === 'a')?.note).toContain('even deleting it scores too low');
    expect(decided('Balanced', 2).scoredMoves.map((m) => [m.decision, m.score?.value.toFixed(2)])).toEqual([
      ['approved', '0.75'],
    ]);
  });

  it('reports misconfigured budgets', () => {
    const p = aNodePool({ metadata: { name: 'default' } });
    const broken = {
      ...p,
      spec: {
        ...p.spec,
        disruption: { ...p.spec.disruption, budgets: [{ nodes: '1', schedule: '0 9 * * *' }] },
      },
    };
    const result = computeDisruption(cluster({ pools: [broken], nodes: [{ node: managedNode('n') }] }), T0);
    expect(result.problems).toEqual(['NodePool/default: budgets[0]: schedule is set without a duration']);
    expect(result.commands).toEqual([]);
    expect(result.nodes[0]?.blockedBy).toBe(
      'the disruption budget of NodePool default allows no disruptions: budgets[0]: schedule is set without a duration (a misconfigured budget allows none)',
    );
  });

  it('counts the candidates each reason would consider, whichever method wins', () => {
    const db = managedNode('db-node');
    const snapshot = cluster({
      pools: [aNodePool({ metadata: { name: 'default' }, spec: { disruption: { consolidateAfter: '5m' } } })],
      nodes: [
        { node: managedNode('idle') },
        { node: managedNode('fresh', { created: '2024-05-01T11:58:00Z' }) },
        { node: db, pods: [boundPod('db-0', 'db-node', { labels: { app: 'db' } })] },
        ...nodesWithPods('web', 2, 1, '1'),
      ],
      pdbs: [pdb('db', { matchLabels: { app: 'db' }, disruptionsAllowed: 0 })],
    });
    const result = computeDisruption(snapshot, T0);
    // Emptiness wins, yet consolidation's candidates (the two web nodes) are counted too; the
    // fresh node and the PDB-protected one are no candidates at all.
    expect(result.commands.map((c) => c.method)).toEqual(['emptiness']);
    expect(result.eligible).toEqual({ Empty: 1, Drifted: 0, Underutilized: 2 });
  });

  it('names the NodePools whose budget blocks a reason some of their candidates have', () => {
    const snapshot = cluster({
      pools: [
        aNodePool({
          metadata: { name: 'default' },
          spec: { disruption: { budgets: [{ nodes: '0', reasons: ['Underutilized'] }] } },
        }),
        aNodePool({ metadata: { name: 'idle' }, spec: { disruption: { budgets: [{ nodes: '0' }] } } }),
      ],
      nodes: nodesWithPods('web', 2, 1, '1'),
    });
    const result = computeDisruption(snapshot, T0);
    expect(result.commands).toEqual([]);
    // `idle` allows nothing but has nothing to disrupt; no node of `default` is empty.
    expect(result.blockedBudgets).toEqual([
      {
        nodePool: 'default',
        reason: 'Underutilized',
        message: result.nodes[0]?.blockedBy,
      },
    ]);
    expect(result.blockedBudgets[0]?.message).toMatch(
      /^the disruption budget of NodePool default allows no Underutilized/,
    );
  });
});
