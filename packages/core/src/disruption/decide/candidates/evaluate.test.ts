import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import { Taints } from '../../../apis/labels.js';
import type { NodeClaim } from '../../../apis/v1/nodeclaim.js';
import type { NodePool } from '../../../apis/v1/nodepool.js';
import {
  boundPod,
  claimFor,
  cluster,
  managedNode,
  pdb,
  T0,
  type TestNode,
} from '../../../testing/disruption-builders.js';
import { aNodePool } from '../../../testing/nodepool-builder.js';
import { evaluateNodes } from './evaluate.js';

function only(
  nodes: TestNode[],
  o: { pools?: NodePool[]; pdbs?: Parameters<typeof cluster>[0]['pdbs']; now?: number } = {},
) {
  const evaluations = evaluateNodes(
    cluster({ nodes, ...(o.pools ? { pools: o.pools } : {}), ...(o.pdbs ? { pdbs: o.pdbs } : {}) }),
    o.now ?? T0,
  );
  expect(evaluations).toHaveLength(1);
  return evaluations[0]!;
}

const n = managedNode('n1');
const pod = (name: string, o: Parameters<typeof boundPod>[2] = {}): Pod => boundPod(name, 'n1', o);

describe('evaluateNodes: rules that block every method', () => {
  it.each<[string, TestNode, string]>([
    [
      'not initialized',
      { node: managedNode('n1', { initialized: false }), claim: claimFor(n) },
      'node is not initialized yet',
    ],
    ['being deleted', { node: managedNode('n1', { deleting: true }) }, 'node is being deleted'],
    [
      'already disrupted',
      { node: managedNode('n1', { taints: [{ ...Taints.Disrupted }] }) },
      'node is already being disrupted (karpenter.sh/disrupted taint)',
    ],
    [
      'nominated',
      { node: n, pods: [boundPod('waiting', '')] },
      'node is nominated for pending pod default/waiting',
    ],
    [
      'node do-not-disrupt',
      { node: managedNode('n1', { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }) },
      'node has karpenter.sh/do-not-disrupt',
    ],
    ['unknown NodePool', { node: managedNode('n1', { pool: 'gone' }) }, 'NodePool gone does not exist'],
    [
      'pod do-not-disrupt',
      { node: n, pods: [pod('keep', { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } })] },
      'pod default/keep has karpenter.sh/do-not-disrupt',
    ],
    [
      'pod do-not-disrupt for a duration not yet over',
      {
        node: n,
        pods: [
          pod('batch', {
            created: '2024-05-01T11:30:00Z',
            annotations: { 'karpenter.sh/do-not-disrupt': '1h' },
          }),
        ],
      },
      'pod default/batch has karpenter.sh/do-not-disrupt: 1h (until 2024-05-01T12:30:00.000Z)',
    ],
  ])('%s', (_, testNode, blockedBy) => {
    const e = only([testNode]);
    expect(e.candidate).toBeUndefined();
    expect(e.blockedBy).toBe(blockedBy);
  });

  it('a do-not-disrupt duration that has passed, or a finished pod, protects nothing', () => {
    const e = only([
      {
        node: n,
        pods: [
          pod('old', {
            created: '2024-05-01T10:00:00Z',
            annotations: { 'karpenter.sh/do-not-disrupt': '1h' },
          }),
          {
            ...pod('done', { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }),
            status: { phase: 'Succeeded' },
          },
          pod('typo', { annotations: { 'karpenter.sh/do-not-disrupt': 'yes' } }),
        ],
      },
    ]);
    expect(e.blockedBy).toBeUndefined();
    expect(e.candidate?.eligibility.Underutilized).toBe(true);
  });

  it('a static NodePool blocks', () => {
    const e = only([{ node: n }], {
      pools: [aNodePool({ metadata: { name: 'default' }, spec: { replicas: 3 } })],
    });
    expect(e.blockedBy).toBe(
      'NodePool default is static (spec.replicas): its nodes are not disrupted by this pass',
    );
  });

  it('in-flight NodeClaims and unmanaged nodes are not listed', () => {
    const unmanaged = managedNode('plain');
    delete (unmanaged.metadata.labels as Record<string, string>)['karpenter.sh/nodepool'];
    const snapshot = cluster({ nodes: [{ node: n }, { node: unmanaged }] });
    const inflight: NodeClaim = claimFor(managedNode('inflight'));
    const evaluations = evaluateNodes(
      {
        ...snapshot,
        capacity: [
          ...snapshot.capacity,
          { name: 'inflight', nodeClaim: inflight, pods: [], initialized: false },
        ],
      },
      T0,
    );
    expect(evaluations.map((e) => e.node.name)).toEqual(['n1']);
  });
});

describe('evaluateNodes: PodDisruptionBudgets', () => {
  const db = pod('db-0', { labels: { app: 'db' } });

  it('a PDB allowing 0 disruptions blocks', () => {
    const e = only([{ node: n, pods: [db] }], {
      pdbs: [pdb('db', { matchLabels: { app: 'db' }, disruptionsAllowed: 0 })],
    });
    expect(e.blockedBy).toBe(
      'pod default/db-0 is protected by PodDisruptionBudget default/db (0 disruptions allowed)',
    );
  });

  it('a PDB with room, in another namespace, or not selecting the pod does not block', () => {
    const e = only([{ node: n, pods: [db] }], {
      pdbs: [
        pdb('db', { matchLabels: { app: 'db' }, disruptionsAllowed: 1 }),
        pdb('other-ns', { namespace: 'prod', matchLabels: { app: 'db' }, disruptionsAllowed: 0 }),
        pdb('web', { matchLabels: { app: 'web' }, disruptionsAllowed: 0 }),
      ],
    });
    expect(e.blockedBy).toBeUndefined();
  });

  it('a pod under several PDBs blocks', () => {
    const e = only([{ node: n, pods: [db] }], {
      pdbs: [
        pdb('a', { matchLabels: { app: 'db' }, disruptionsAllowed: 1 }),
        pdb('b', { matchLabels: { app: 'db' }, disruptionsAllowed: 2 }),
      ],
    });
    expect(e.blockedBy).toBe(
      'pod default/db-0 is selected by several PodDisruptionBudgets (default/a, default/b); the Eviction API evicts it under one only',
    );
  });

  it('without a status, allowed disruptions are computed from the snapshot pods', () => {
    const replicas = [
      pod('db-0', { labels: { app: 'db' }, owner: { kind: 'StatefulSet', name: 'db' } }),
      pod('db-1', { labels: { app: 'db' }, owner: { kind: 'StatefulSet', name: 'db' } }),
    ];
    const tight = only([{ node: n, pods: replicas }], {
      pdbs: [pdb('db', { matchLabels: { app: 'db' }, minAvailable: 2 })],
    });
    expect(tight.blockedBy).toBe(
      'pod default/db-0 is protected by PodDisruptionBudget default/db (0 disruptions allowed)',
    );
    const loose = only([{ node: n, pods: replicas }], {
      pdbs: [pdb('db', { matchLabels: { app: 'db' }, maxUnavailable: 1 })],
    });
    expect(loose.blockedBy).toBeUndefined();
  });

  it('AlwaysAllow lets an unready pod go; pods tolerating the disrupted taint are not evicted', () => {
    const unready = pod('db-0', { labels: { app: 'db' }, ready: false });
    const always = only([{ node: n, pods: [unready] }], {
      pdbs: [
        pdb('db', {
          matchLabels: { app: 'db' },
          disruptionsAllowed: 0,
          unhealthyPodEvictionPolicy: 'AlwaysAllow',
        }),
      ],
    });
    expect(always.blockedBy).toBeUndefined();
    const tolerant = pod('agent', {
      labels: { app: 'db' },
      spec: { tolerations: [{ key: 'karpenter.sh/disrupted', operator: 'Exists', effect: 'NoSchedule' }] },
    });
    const e = only([{ node: n, pods: [tolerant] }], {
      pdbs: [pdb('db', { matchLabels: { app: 'db' }, disruptionsAllowed: 0 })],
    });
    expect(e.blockedBy).toBeUndefined();
  });
});

describe('evaluateNodes: per-reason eligibility', () => {
  it('consolidateAfter counts from the newest pod, the node, or lastPodEventTime', () => {
    const p = [
      aNodePool({ metadata: { name: 'default' }, spec: { disruption: { consolidateAfter: '30m' } } }),
    ];
    const recentPod = only([{ node: n, pods: [pod('new', { created: '2024-05-01T11:45:00Z' })] }], {
      pools: p,
    });
    expect(recentPod.candidate?.eligibility.Underutilized).toBe(
      'consolidateAfter 30m has not passed since pod default/new was created (2024-05-01T11:45:00Z); consolidatable from 2024-05-01T12:15:00Z',
    );
    const newNode = managedNode('n1', { created: '2024-05-01T11:50:00Z' });
    expect(only([{ node: newNode }], { pools: p }).candidate?.eligibility.Empty).toBe(
      'consolidateAfter 30m has not passed since the node was created (2024-05-01T11:50:00Z); consolidatable from 2024-05-01T12:20:00Z',
    );
    const event = only([{ node: n, claim: claimFor(n, { lastPodEventTime: '2024-05-01T11:40:00Z' }) }], {
      pools: p,
    });
    expect(event.candidate?.eligibility.Empty).toBe(
      'consolidateAfter 30m has not passed since the last pod event (2024-05-01T11:40:00Z); consolidatable from 2024-05-01T12:10:00Z',
    );
    const passed = only([{ node: n, claim: claimFor(n, { lastPodEventTime: '2024-05-01T11:30:00Z' }) }], {
      pools: p,
    });
    expect(passed.candidate?.eligibility.Empty).toBe(true);
  });

  it('Never disables emptiness and consolidation but not drift', () => {
    const p = [
      aNodePool({
        metadata: { name: 'default' },
        spec: {
          template: {
            spec: { requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] }] },
          },
          disruption: { consolidateAfter: 'Never' },
        },
      }),
    ];
    const empty = only([{ node: n }], { pools: p });
    expect(empty.candidate?.eligibility).toEqual({
      Empty: 'NodePool default has consolidation disabled (consolidateAfter: Never)',
      Drifted: true,
      Underutilized: 'node is empty: emptiness removes it',
    });
    const busy = only([{ node: n, pods: [pod('a')] }], { pools: p });
    expect(busy.candidate?.eligibility.Underutilized).toBe(
      'NodePool default has consolidation disabled (consolidateAfter: Never)',
    );
  });

  it('WhenEmpty allows emptiness only', () => {
    const p = [
      aNodePool({
        metadata: { name: 'default' },
        spec: { disruption: { consolidationPolicy: 'WhenEmpty' } },
      }),
    ];
    expect(only([{ node: n }], { pools: p }).candidate?.eligibility.Empty).toBe(true);
    expect(
      only([{ node: n, pods: [pod('a'), pod('b')] }], { pools: p }).candidate?.eligibility.Underutilized,
    ).toBe(
      'NodePool default has consolidationPolicy WhenEmpty and the node is not empty (2 pods would move)',
    );
  });

  it('DaemonSet and static pods do not make a node non-empty', () => {
    const e = only([
      {
        node: n,
        pods: [
          pod('ds', { owner: { kind: 'DaemonSet', name: 'agent' } }),
          pod('static', { owner: { kind: 'Node', name: 'n1' } }),
        ],
      },
    ]);
    expect(e.candidate?.eligibility.Empty).toBe(true);
    expect(e.candidate?.disruptionCost).toBe(0);
  });

  it('consolidation needs a known price', () => {
    const unknown = managedNode('n1', { type: 'mystery' });
    expect(only([{ node: unknown, pods: [pod('a')] }]).candidate?.eligibility.Underutilized).toBe(
      "instance type mystery is not in the catalog, so the node's price is unknown",
    );
    const noZone = managedNode('n1');
    delete (noZone.metadata.labels as Record<string, string>)['topology.kubernetes.io/zone'];
    expect(only([{ node: noZone, pods: [pod('a')] }]).candidate?.eligibility.Underutilized).toBe(
      'node has no topology.kubernetes.io/zone label, so its price is unknown',
    );
    const spot = managedNode('n1', { capacityType: 'spot', zone: 'zone-b' });
    const priced = only([{ node: spot, pods: [pod('a')] }]).candidate!;
    expect(priced.price).toMatchObject({ known: true, price: 0.14, capacityType: 'spot', zone: 'zone-b' });
  });

  it('drift with a terminationGracePeriod ignores blocking pods; consolidation does not', () => {
    const drifted = claimFor(n, {
      conditions: [
        { type: 'Initialized', status: 'True' },
        { type: 'Drifted', status: 'True', reason: 'AMIDrift' },
      ],
      terminationGracePeriod: '1h',
    });
    const e = only([
      {
        node: n,
        claim: drifted,
        pods: [pod('keep', { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } })],
      },
    ]);
    expect(e.candidate?.eligibility).toEqual({
      Empty: 'node is not empty',
      Drifted: true,
      Underutilized: 'pod default/keep has karpenter.sh/do-not-disrupt',
    });
    expect(e.candidate?.drift?.reason).toBe('NodeClaim is Drifted (AMIDrift)');
    const noGrace = claimFor(n, {
      conditions: [
        { type: 'Initialized', status: 'True' },
        { type: 'Drifted', status: 'True' },
      ],
    });
    const blocked = only([
      {
        node: n,
        claim: noGrace,
        pods: [pod('keep', { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } })],
      },
    ]);
    expect(blocked.blockedBy).toBe('pod default/keep has karpenter.sh/do-not-disrupt');
  });

  it('disruption cost adds eviction costs and scales by the lifetime left', () => {
    const young = claimFor(n, { created: '2024-05-01T00:00:00Z', expireAfter: '24h' });
    const e = only([
      {
        node: n,
        claim: young,
        pods: [
          pod('a'),
          pod('b', { priority: 2 ** 25 }),
          pod('c', { annotations: { 'controller.kubernetes.io/pod-deletion-cost': String(-(2 ** 27)) } }),
        ],
      },
    ]);
    // (1 + 2 + 0) * (12h left of 24h)
    expect(e.candidate?.disruptionCost).toBeCloseTo(1.5, 10);
  });
});
