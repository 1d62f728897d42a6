import { describe, expect, it } from 'vitest';
import { daemonSetSchema } from '../apis/kubernetes/daemon-set.js';
import { type Pod, podSchema } from '../apis/kubernetes/pod.js';
import { Labels } from '../apis/labels.js';
import { DaemonSets, NodeClaims, NodePools, Nodes, Pods } from '../kube/resource-types.js';
import { MetricNames } from '../metrics/names.js';
import { ControllerEnv } from '../testing/controller-env.js';
import { fakeInstanceTypes } from '../testing/fake-instance-types.js';
import { aNode } from '../testing/node-builder.js';
import { aNodeClaim } from '../testing/nodeclaim-builder.js';
import { aNodePool } from '../testing/nodepool-builder.js';
import { aPod, aRunningPod } from '../testing/pod-builder.js';
import { ClusterState } from './cluster-state.js';
import { clusterStateController } from './cluster-state-controller.js';
import { buildSolverInput } from './snapshot.js';

async function setup(nominationWindowMs?: number) {
  const env = new ControllerEnv();
  const state = new ClusterState({
    clock: env.clock,
    registry: env.registry,
    ...(nominationWindowMs === undefined ? {} : { nominationWindowMs }),
  });
  await env.start(clusterStateController(state));
  return { env, state };
}

const names = (pods: readonly Pod[]) => pods.map((p) => p.metadata.name).sort();
const types = new Map([['default', fakeInstanceTypes()]]);

describe('ClusterState', () => {
  it('follows nodes, claims, pools and pods from the informers, with the pods bound to each node', async () => {
    const { env, state } = await setup();
    await env.cluster.create(NodePools, aNodePool());
    await env.create(Nodes, aNode({ metadata: { name: 'n1' } }));
    await env.create(Nodes, aNode({ metadata: { name: 'n2' } }));
    await env.cluster.create(NodeClaims, aNodeClaim({ metadata: { name: 'default-a' } }));
    await env.create(Pods, aRunningPod('n1', { metadata: { name: 'web' } }));
    await env.create(Pods, aPod({ metadata: { name: 'pending' } }));
    await env.settle();
    expect(state.nodes().map((n) => n.metadata.name)).toEqual(['n1', 'n2']);
    expect(state.nodeClaims().map((c) => c.metadata.name)).toEqual(['default-a']);
    expect(state.nodePool('default')?.spec.template.spec.expireAfter).toBe('720h');
    expect(names(state.podsOn('n1'))).toEqual(['web']);
    expect(names(state.pods())).toEqual(['pending', 'web']);
    expect(await env.metric(MetricNames.ClusterStateNodeCount)).toBe(3);

    await env.cluster.delete(Pods, { name: 'web', namespace: 'default' });
    await env.cluster.patch(Pods, { name: 'pending', namespace: 'default' }, { spec: { nodeName: 'n2' } });
    await env.cluster.delete(Nodes, { name: 'n1' });
    await env.settle();
    expect(state.podsOn('n1')).toEqual([]);
    expect(names(state.podsOn('n2'))).toEqual(['pending']);
    expect(state.node('n1')).toBeUndefined();
    expect(await env.metric(MetricNames.ClusterStateNodeCount)).toBe(2);
    await env.stop();
  });

  it('a pod whose spec did not change keeps its parsed spec, and parses as a whole pod would', async () => {
    const { env, state } = await setup();
    await env.create(Pods, aPod({ metadata: { name: 'web' } }));
    await env.settle();
    const before = state.pods()[0];
    await env.cluster.patchStatus(
      Pods,
      { name: 'web', namespace: 'default' },
      { status: { phase: 'Running' } },
    );
    await env.cluster.patch(
      Pods,
      { name: 'web', namespace: 'default' },
      { metadata: { labels: { x: 'y' } } },
    );
    await env.settle();
    const after = state.pods()[0];
    expect(after?.spec).toBe(before?.spec);
    expect(after?.status?.phase).toBe('Running');
    expect(after?.metadata.labels).toEqual(expect.objectContaining({ x: 'y' }));
    const stored = await env.cluster.get(Pods, { name: 'web', namespace: 'default' });
    const { managedFields: _dropped, ...metadata } = stored.metadata;
    expect(JSON.stringify(after)).toBe(JSON.stringify(podSchema.parse({ ...stored, metadata })));

    await env.cluster.patch(Pods, { name: 'web', namespace: 'default' }, { spec: { nodeName: 'n1' } });
    await env.settle();
    expect(state.pods()[0]?.spec).not.toBe(before?.spec);
    expect(state.podsOn('n1').map((p) => p.metadata.name)).toEqual(['web']);
    await env.stop();
  });

  it('a claim whose Node registered counts once in the node count', async () => {
    const { env, state } = await setup();
    await env.create(
      NodeClaims,
      aNodeClaim({ metadata: { name: 'c1' }, status: { providerID: 'fake://c1' } }),
    );
    await env.settle();
    expect(state.nodeCount()).toBe(1);
    await env.create(Nodes, aNode({ metadata: { name: 'ip-1' }, spec: { providerID: 'fake://c1' } }));
    await env.settle();
    expect(state.nodeCount()).toBe(1);
    expect(await env.metric(MetricNames.ClusterStateNodeCount)).toBe(1);
    await env.stop();
  });

  it('keeps pods and NodePools their schema rejects apart, with the reason', async () => {
    const { env, state } = await setup();
    const bad = aPod({ metadata: { name: 'bad' } });
    const raw = {
      ...bad,
      spec: { containers: [{ name: 'a', image: 'x', resources: { requests: { cpu: 'lots' } } }] },
    };
    await env.cluster.create(Pods, raw as unknown as Pod);
    await env.settle();
    expect(state.pods()).toEqual([]);
    expect(state.invalidPods().map((p) => p.object.metadata.name)).toEqual(['bad']);
    expect(state.invalidPods()[0]?.message).toMatch(/cpu/);
    expect(state.snapshot(types).input.pods).toEqual([]);
    // Fixed: it becomes a regular pod.
    await env.cluster.update(Pods, {
      ...(await env.cluster.get(Pods, { name: 'bad', namespace: 'default' })),
      spec: bad.spec,
    });
    await env.settle();
    expect(state.invalidPods()).toEqual([]);
    expect(names(state.pods())).toEqual(['bad']);
    await env.stop();
  });

  it('its snapshot is buildSolverInput over its objects, nominations and marks included', async () => {
    const { env, state } = await setup();
    await env.cluster.create(NodePools, aNodePool());
    await env.create(Nodes, aNode({ metadata: { name: 'n1', labels: { [Labels.NodePool]: 'default' } } }));
    await env.create(Nodes, aNode({ metadata: { name: 'n2' } }));
    for (const name of ['a', 'b', 'c']) await env.create(Pods, aPod({ metadata: { name } }));
    await env.create(Pods, aRunningPod('n1', { metadata: { name: 'bound' } }));
    await env.settle();
    state.nominate([state.pod('default', 'a')!], { node: 'n2' });
    state.markForDeletion('n1');
    const snapshot = state.snapshot(types);
    const now = env.clock.now();
    expect(snapshot).toEqual(
      buildSolverInput(state.objects(), types, {
        nominatedTo: (pod) => (pod.metadata.name === 'a' && now >= 0 ? { node: 'n2' } : undefined),
        markedForDeletion: new Set(['n1']),
      }),
    );
    expect(names(snapshot.input.pods)).toEqual(['b', 'c']);
    expect(snapshot.input.existing.map((e) => [e.name, names(e.pods), e.markedForDeletion])).toEqual([
      ['n1', ['bound'], true],
      ['n2', ['a'], false],
    ]);
    state.unmarkForDeletion('n1');
    expect(state.isMarkedForDeletion('n1')).toBe(false);
    await env.stop();
  });

  it('hands out the same capacity objects and DaemonSet list while they are unchanged, new ones once they change', async () => {
    const { env, state } = await setup();
    await env.cluster.create(NodePools, aNodePool());
    await env.create(Nodes, aNode({ metadata: { name: 'n1' } }));
    await env.create(Nodes, aNode({ metadata: { name: 'n2' } }));
    await env.create(Pods, aRunningPod('n1', { metadata: { name: 'one' } }));
    await env.settle();
    const first = state.snapshot(types).input;
    const second = state.snapshot(types).input;
    expect(second.existing).toEqual(first.existing);
    for (const [i, piece] of second.existing.entries()) expect(piece).toBe(first.existing[i]);
    expect(second.daemonSets).toBe(first.daemonSets);

    await env.create(Pods, aRunningPod('n2', { metadata: { name: 'two' } }));
    await env.settle();
    const third = state.snapshot(types).input;
    expect(third.existing[0]).toBe(first.existing[0]);
    expect(third.existing[1]).not.toBe(first.existing[1]);
    expect(names(third.existing[1]!.pods)).toEqual(['two']);
    state.markForDeletion('n1');
    const marked = state.snapshot(types).input;
    expect(marked.existing[0]).not.toBe(first.existing[0]);
    expect(marked.existing[0]!.markedForDeletion).toBe(true);
    expect(marked.existing[1]).toBe(third.existing[1]);

    const agent = daemonSetSchema.parse({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'kube-system' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'a', image: 'agent', resources: { requests: { cpu: '100m' } } }] },
        },
      },
    });
    await env.cluster.create(DaemonSets, agent);
    await env.settle();
    const withAgent = state.snapshot(types).input;
    expect(withAgent.daemonSets).not.toBe(first.daemonSets);
    expect(withAgent.daemonSets.map((d) => d.metadata.name)).toEqual(['agent']);
    await env.stop();
  });

  it('a nomination ends when the pod binds, when its claim goes away, or after the window', async () => {
    const { env, state } = await setup(20_000);
    await env.cluster.create(NodeClaims, aNodeClaim({ metadata: { name: 'c1' } }));
    for (const name of ['a', 'b', 'c']) await env.create(Pods, aPod({ metadata: { name } }));
    await env.settle();
    const pod = (name: string) => state.pod('default', name)!;
    state.nominate([pod('a'), pod('b')], { nodeClaim: 'c1' });
    state.nominate([pod('c')], { node: 'elsewhere' });
    expect(state.isNominated('c1')).toBe(true);
    expect(state.nextNominationExpiry()).toBe(env.clock.now() + 20_000);

    await env.cluster.patch(Pods, { name: 'a', namespace: 'default' }, { spec: { nodeName: 'n1' } });
    await env.settle();
    expect(state.nominationOf(pod('a'))).toBeUndefined();
    expect(state.nominationOf(pod('b'))).toEqual({ nodeClaim: 'c1' });

    await env.cluster.delete(NodeClaims, { name: 'c1' });
    await env.settle();
    expect(state.nominationOf(pod('b'))).toBeUndefined();
    expect(state.isNominated('c1')).toBe(false);

    await env.advance(20_000);
    expect(state.nominationOf(pod('c'))).toBeUndefined();
    await env.stop();
  });

  it('a nomination to a claim on its way outlives the window; the claim up, a window to bind in starts', async () => {
    const { env, state } = await setup(20_000);
    await env.cluster.create(NodeClaims, aNodeClaim({ metadata: { name: 'c1' } }));
    await env.create(Nodes, aNode({ metadata: { name: 'n1' } }));
    for (const name of ['a', 'b']) await env.create(Pods, aPod({ metadata: { name } }));
    await env.settle();
    const pod = (name: string) => state.pod('default', name)!;
    state.nominate([pod('a')], { nodeClaim: 'c1' });
    state.nominate([pod('b')], { node: 'n1' });

    // The node registers for longer than the window: the pod stays counted on its claim.
    await env.advance(45_000);
    expect(state.nominationOf(pod('a'))).toEqual({ nodeClaim: 'c1' });
    expect(state.snapshot(types).input.pods.map((p) => p.metadata.name)).toEqual(['b']);
    // A nomination to a node that is up already ends with its window.
    expect(state.nominationOf(pod('b'))).toBeUndefined();

    const at = new Date(env.clock.now()).toISOString();
    await env.cluster.patchStatus(
      NodeClaims,
      { name: 'c1' },
      { status: { conditions: [{ type: 'Initialized', status: 'True', lastTransitionTime: at }] } },
    );
    await env.settle();
    expect(state.nominationOf(pod('a'))).toEqual({ nodeClaim: 'c1' });
    expect(state.nextNominationExpiry()).toBe(env.clock.now() + 20_000);
    await env.advance(20_000);
    expect(state.nominationOf(pod('a'))).toBeUndefined();
    await env.stop();
  });

  it('its generation moves with every object applied, nomination and mark, and never on a read', async () => {
    const { env, state } = await setup();
    await env.create(Nodes, aNode({ metadata: { name: 'n1' } }));
    await env.create(Pods, aPod({ metadata: { name: 'pending' } }));
    await env.settle();
    const moved = (() => {
      let last = state.generation();
      return () => {
        const now = state.generation();
        const changed = now !== last;
        last = now;
        return changed;
      };
    })();
    state.snapshot(types);
    state.objects();
    state.nominationOf(state.pods()[0]!);
    expect(moved()).toBe(false);
    await env.cluster.patchStatus(Nodes, { name: 'n1' }, { status: { phase: 'Running' } });
    await env.settle();
    expect(moved()).toBe(true);
    state.nominate(state.pods(), { node: 'n1' });
    expect(moved()).toBe(true);
    state.markForDeletion('n1');
    expect(moved()).toBe(true);
    state.unmarkForDeletion('n1');
    expect(moved()).toBe(true);
    await env.stop();
  });

  it('is synced once it has seen every Node and NodeClaim the API server lists', async () => {
    const { env } = await setup();
    const claim = await env.cluster.create(NodeClaims, aNodeClaim({ metadata: { name: 'c1' } }));
    const node = await env.create(Nodes, aNode({ metadata: { name: 'n1' } }));
    // A state whose informers have not delivered everything yet (a restart, a fresh claim).
    const lagging = new ClusterState({ clock: env.clock });
    expect(await lagging.synced(env.cluster)).toBe(false);
    lagging.apply('NodeClaim', { type: 'ADDED', object: claim });
    expect(await lagging.synced(env.cluster)).toBe(false);
    lagging.apply('Node', { type: 'ADDED', object: node });
    expect(await lagging.synced(env.cluster)).toBe(true);
    await env.stop();
  });
});
