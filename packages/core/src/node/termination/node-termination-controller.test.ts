import type { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { Annotations, Taints } from '../../apis/labels.js';
import {
  DaemonSets,
  NodeClaims,
  NodePools,
  Nodes,
  PodDisruptionBudgets,
  Pods,
  VolumeAttachments,
} from '../../kube/resource-types.js';
import { getCondition } from '../../lifecycle/conditions.js';
import { EventReasons } from '../../lifecycle/events.js';
import { MetricNames } from '../../metrics/names.js';
import { NodeClaimLifecycleController } from '../../nodeclaim/lifecycle/nodeclaim-lifecycle-controller.js';
import { ControllerEnv, type ControllerEnvOptions } from '../../testing/controller-env.js';
import { lifecycleDependencies } from '../../testing/lifecycle-env.js';
import type { DeepPartial } from '../../testing/merge.js';
import { aNodeFor } from '../../testing/node-builder.js';
import { aNodeClaimFor } from '../../testing/nodeclaim-builder.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { aRunningPod, type PodInput } from '../../testing/pod-builder.js';
import { NodeTerminationController } from './node-termination-controller.js';

const NODE = 'default-a1';
const MIN = 60_000;

/** An env with a Ready, initialized node `default-a1` of a pool with the given termination grace period. */
async function withNode(terminationGracePeriod?: string, options: ControllerEnvOptions = {}) {
  const env = new ControllerEnv(options);
  const deps = lifecycleDependencies(env);
  await env.start(new NodeClaimLifecycleController(deps), new NodeTerminationController(deps));
  const pool = await env.cluster.create(
    NodePools,
    aNodePool(
      terminationGracePeriod === undefined
        ? {}
        : { spec: { template: { spec: { terminationGracePeriod } } } },
    ),
  );
  await env.cluster.create(NodeClaims, aNodeClaimFor(pool, { metadata: { name: NODE } }));
  await env.settle();
  await env.cluster.create(Nodes, aNodeFor((await env.find(NodeClaims, NODE))!));
  await env.settle();
  expect(getCondition((await env.find(NodeClaims, NODE))?.status?.conditions, 'Ready')?.status).toBe('True');
  const pod = (name: string, overrides: DeepPartial<PodInput> = {}) =>
    env.create(Pods, aRunningPod(NODE, { ...overrides, metadata: { name, ...overrides.metadata } }));
  const pods = async () => (await env.cluster.list(Pods)).items.map((p) => p.metadata.name).sort();
  const evicted = () => env.events.withReason(EventReasons.Evicted).map((e) => e.object.metadata.name);
  return { env, pod, pods, evicted };
}

const webPdb = (minAvailable: number) => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web-pdb', namespace: 'default' },
  spec: { minAvailable, selector: { matchLabels: { app: 'web' } } },
});

/** A histogram's observation count and sum of seconds, for the nodepool `default`. */
async function histogram(env: { registry: Registry }, name: string) {
  const values = (await env.registry.getSingleMetric(name)?.get())?.values ?? [];
  const of = (suffix: string) =>
    values.find((v) => (v as { metricName?: string }).metricName === `${name}${suffix}`)?.value;
  return { count: of('_count'), seconds: of('_sum') };
}

describe('node.termination', () => {
  it('drains, terminates the instance and releases Node and NodeClaim when the claim is deleted', async () => {
    const { env, pod, pods, evicted } = await withNode();
    await pod('a');
    await pod('b');
    await env.cluster.delete(NodeClaims, { name: NODE });
    await env.settle();
    expect(evicted().sort()).toEqual(['a', 'b']);
    expect(await pods()).toEqual([]);
    await env.advance(5_000);
    expect(await env.find(Nodes, NODE)).toBeUndefined();
    await env.advance(5_000);
    expect(await env.find(NodeClaims, NODE)).toBeUndefined();
    expect(env.cloudProvider.instances()).toEqual([]);
    expect(await env.metric(MetricNames.NodesTerminated, { nodepool: 'default' })).toBe(1);
    expect(await env.metric(MetricNames.NodeClaimsTerminated, { nodepool: 'default' })).toBe(1);
    expect(await env.metric(MetricNames.NodesDrained, { nodepool: 'default' })).toBe(1);
    expect(await env.metric(MetricNames.NodesEvictionRequests, { code: '200' })).toBe(2);
    expect(await env.metric(MetricNames.PodsEvictionRequests, { code: '200' })).toBe(2);
    // The claim was deleted without a disruption reason.
    expect(await env.metric(MetricNames.PodsDrained, { reason: 'Forceful Termination' })).toBe(2);
  });

  it('keeps retrying an eviction a PDB refuses, naming the PDB, until the PDB allows it', async () => {
    const { env, pod, pods } = await withNode();
    await pod('web-1', { metadata: { labels: { app: 'web' } } });
    await pod('web-2', { metadata: { labels: { app: 'web' } } });
    await env.cluster.create(PodDisruptionBudgets, webPdb(2));
    await env.cluster.delete(NodeClaims, { name: NODE });
    await env.settle();
    await env.advance(10_000);
    expect(await pods()).toEqual(['web-1', 'web-2']);
    const node = await env.find(Nodes, NODE);
    expect(node?.metadata.deletionTimestamp).toBeDefined();
    expect(node?.spec.taints).toContainEqual(Taints.Disrupted);
    const blocked = env.events.withReason(EventReasons.FailedDraining).map((e) => e.message);
    expect(blocked).toContain(
      'Failed to drain node, evicting pod violates PodDisruptionBudget default/web-pdb: pod default/web-1',
    );
    expect(env.events.withReason(EventReasons.EvictionBlocked).map((e) => e.object.metadata.name)).toContain(
      'web-2',
    );
    const claim = await env.find(NodeClaims, NODE);
    expect(getCondition(claim?.status?.conditions, 'Drained')).toMatchObject({
      status: 'Unknown',
      reason: 'Draining',
    });

    await env.cluster.patch(
      PodDisruptionBudgets,
      { name: 'web-pdb', namespace: 'default' },
      { spec: { minAvailable: 0 } },
    );
    await env.advance(1_000);
    expect(await pods()).toEqual([]);
    await env.advance(10_000);
    expect(await env.find(Nodes, NODE)).toBeUndefined();
    expect(await env.find(NodeClaims, NODE)).toBeUndefined();
    // Deleted at once, released 11 s later once the PDB let both pods go.
    expect(await histogram(env, MetricNames.NodesTerminationDuration)).toEqual({ count: 1, seconds: 11 });
    expect(await histogram(env, MetricNames.NodesLifetimeDuration)).toEqual({ count: 1, seconds: 11 });
    expect(await histogram(env, MetricNames.NodeClaimsTerminationDuration)).toEqual({
      count: 1,
      seconds: 11,
    });
    expect((await histogram(env, MetricNames.NodeClaimsInstanceTerminationDuration)).count).toBe(1);
    // Refused once a second by the PDB, each refusal a 429.
    expect(await env.metric(MetricNames.NodesEvictionRequests, { code: '429' })).toBeGreaterThanOrEqual(10);
    expect(await env.metric(MetricNames.NodesEvictionRequests, { code: '200' })).toBe(2);
  });

  it('waits for do-not-disrupt pods until the termination grace period forces them off', async () => {
    const { env, pod, pods, evicted } = await withNode('10m');
    await pod('plain');
    await pod('batch', {
      metadata: { annotations: { [Annotations.DoNotDisrupt]: 'true' } },
      spec: { terminationGracePeriodSeconds: 60 },
    });
    const deletedAt = env.clock.now();
    await env.cluster.delete(NodeClaims, { name: NODE });
    await env.settle();
    const claim = await env.find(NodeClaims, NODE);
    expect(claim?.metadata.annotations?.[Annotations.NodeClaimTerminationTimestamp]).toBe(
      new Date(deletedAt + 10 * MIN).toISOString().replace('.000Z', 'Z'),
    );
    expect(evicted()).toEqual(['plain']);
    // The pod's own 60 s grace must fit before the deadline: it is deleted 9 minutes in.
    await env.advance(9 * MIN - 1_000);
    expect(await pods()).toEqual(['batch']);
    await env.advance(1_000);
    expect(await pods()).toEqual([]);
    const disrupted = env.events.withReason(EventReasons.Disrupted);
    expect(disrupted.map((e) => e.object.metadata.name)).toEqual(['batch']);
    expect(disrupted[0]?.message).toMatch(/granted 60s of grace/);
    expect(evicted()).toEqual(['plain']);
    await env.advance(10_000);
    expect(await env.find(Nodes, NODE)).toBeUndefined();
  });

  it('deletes PDB-blocked pods once the termination grace period leaves no room for their own', async () => {
    const { env, pod, pods } = await withNode('5m');
    await pod('web-1', { metadata: { labels: { app: 'web' } } });
    await pod('web-2', { metadata: { labels: { app: 'web' } } });
    await env.cluster.create(PodDisruptionBudgets, webPdb(2));
    await env.cluster.delete(NodeClaims, { name: NODE });
    await env.settle();
    await env.advance(4.5 * MIN - 1_000);
    expect(await pods()).toEqual(['web-1', 'web-2']);
    await env.advance(1_000);
    expect(await pods()).toEqual([]);
    expect(env.events.withReason(EventReasons.Disrupted)).toHaveLength(2);
    await env.advance(10_000);
    expect(await env.find(Nodes, NODE)).toBeUndefined();
  });

  it('drains in four tiers: non-critical, non-critical daemon, critical, critical daemon', async () => {
    const { env, pod, evicted } = await withNode();
    const ds = await env.cluster.create(DaemonSets, {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'a', image: 'agent' }] },
        },
      },
    });
    const owner = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      name: 'agent',
      uid: ds.metadata.uid,
      controller: true,
    };
    await pod('z-crit-ds', {
      metadata: { ownerReferences: [owner] },
      spec: { priorityClassName: 'system-node-critical' },
    });
    await pod('y-crit', { spec: { priorityClassName: 'system-cluster-critical' } });
    await pod('x-ds', { metadata: { ownerReferences: [owner] } });
    await pod('w-app');
    await env.cluster.delete(NodeClaims, { name: NODE });
    await env.settle();
    expect(evicted()).toEqual(['w-app', 'x-ds', 'y-crit', 'z-crit-ds']);
  });

  it('leaves pods that tolerate the disrupted taint and static pods, and finishes without them', async () => {
    const { env, pod, pods, evicted } = await withNode();
    const node = (await env.find(Nodes, NODE))!;
    await pod('tolerant', { spec: { tolerations: [{ key: Taints.Disrupted.key, operator: 'Exists' }] } });
    await pod('static', {
      metadata: {
        ownerReferences: [
          { apiVersion: 'v1', kind: 'Node', name: NODE, uid: node.metadata.uid, controller: true },
        ],
      },
    });
    await pod('app');
    await env.cluster.delete(NodeClaims, { name: NODE });
    await env.settle();
    await env.advance(5_000);
    expect(evicted()).toEqual(['app']);
    expect(await env.find(Nodes, NODE)).toBeUndefined();
    // The tolerant pod stays; the static pod went with its Node (owner garbage collection).
    expect(await pods()).toEqual(['tolerant']);
  });

  it('waits for VolumeAttachments to go, and stops waiting once the grace period is over', async () => {
    const { env } = await withNode('2m', { cloudProvider: { terminationDelayMs: 10_000 } });
    await env.cluster.create(VolumeAttachments, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'va-1' },
      spec: { attacher: 'csi.example.com', nodeName: NODE, source: { persistentVolumeName: 'pv-1' } },
    });
    await env.cluster.delete(NodeClaims, { name: NODE });
    await env.settle();
    await env.advance(MIN);
    expect(await env.find(Nodes, NODE)).toBeDefined();
    expect(env.events.withReason(EventReasons.AwaitingVolumeDetachment)[0]?.message).toMatch(/va-1/);
    const waiting = await env.find(NodeClaims, NODE);
    expect(getCondition(waiting?.status?.conditions, 'VolumesDetached')?.reason).toBe(
      'AwaitingVolumeDetachment',
    );
    expect(env.cloudProvider.instances()).toHaveLength(1);
    await env.advance(MIN + 1_000);
    const released = await env.find(NodeClaims, NODE);
    expect(getCondition(released?.status?.conditions, 'VolumesDetached')).toMatchObject({
      status: 'False',
      reason: 'TerminationGracePeriodElapsed',
    });
    await env.advance(15_000);
    expect(await env.find(Nodes, NODE)).toBeUndefined();
    expect(env.cloudProvider.instances()).toEqual([]);
  });

  it('proceeds as soon as the VolumeAttachment is deleted', async () => {
    const { env } = await withNode();
    await env.cluster.create(VolumeAttachments, {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'VolumeAttachment',
      metadata: { name: 'va-1' },
      spec: { attacher: 'csi.example.com', nodeName: NODE, source: { persistentVolumeName: 'pv-1' } },
    });
    await env.cluster.delete(NodeClaims, { name: NODE });
    await env.advance(30_000);
    expect(await env.find(Nodes, NODE)).toBeDefined();
    await env.cluster.delete(VolumeAttachments, { name: 'va-1' });
    await env.advance(5_000);
    expect(await env.find(Nodes, NODE)).toBeUndefined();
  });

  it('releases a NotReady Node whose instance is already gone without draining, and deletes its claim', async () => {
    const { env, pod, evicted } = await withNode();
    await pod('app');
    env.cloudProvider.removeInstance(`fake://${NODE}`);
    await env.cluster.patchStatus(
      Nodes,
      { name: NODE },
      {
        status: {
          conditions: [
            {
              type: 'Ready',
              status: 'Unknown',
              reason: 'NodeStatusUnknown',
              lastTransitionTime: '2026-03-02T09:00:00Z',
            },
          ],
        },
      },
    );
    await env.cluster.delete(Nodes, { name: NODE });
    await env.settle();
    expect(await env.find(Nodes, NODE)).toBeUndefined();
    expect(await env.find(NodeClaims, NODE)).toBeUndefined();
    expect(evicted()).toEqual([]);
  });
});
