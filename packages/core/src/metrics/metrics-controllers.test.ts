import { describe, expect, it } from 'vitest';
import { Labels } from '../apis/labels.js';
import { cloudProviderMetrics } from '../cloudprovider/metrics-decorator.js';
import type { KubeObject } from '../kube/object.js';
import type { ResourceType } from '../kube/resource-type.js';
import { DaemonSets, NodePools, Nodes, Pods, ReplicaSets } from '../kube/resource-types.js';
import { metricsControllers } from '../operator/controllers.js';
import { ClusterState } from '../state/cluster-state.js';
import { clusterStateController } from '../state/cluster-state-controller.js';
import { ControllerEnv } from '../testing/controller-env.js';
import { aNode } from '../testing/node-builder.js';
import { aNodePool } from '../testing/nodepool-builder.js';
import { aPod, aRunningPod } from '../testing/pod-builder.js';
import { MetricNames } from './names.js';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

const nodeLabels = {
  [Labels.NodePool]: 'default',
  [Labels.Zone]: 'zone-a',
  [Labels.InstanceType]: 'fake.large',
  [Labels.CapacityType]: 'spot',
  [Labels.Arch]: 'amd64',
  [Labels.OS]: 'linux',
  [Labels.Initialized]: 'true',
};

function managedNode(name: string, extra: Record<string, string> = {}) {
  return aNode({
    metadata: { name, labels: { ...nodeLabels, ...extra } },
    status: {
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '3800m', memory: '15Gi', pods: '110' },
    },
  });
}

async function newEnv(options: { startEmpty?: boolean } = {}) {
  const env = new ControllerEnv();
  const state = new ClusterState({ clock: env.clock });
  const controllers = [
    clusterStateController(state),
    ...metricsControllers({ state, clock: env.clock, registry: env.registry }),
  ];
  if (options.startEmpty !== false) await env.start(...controllers);
  return { env, state, start: () => env.start(...controllers) };
}

/** An owner reference to a freshly created workload (the garbage collector deletes pods of missing owners). */
async function ownerRef(env: ControllerEnv, type: ResourceType, name: string) {
  const created = await env.cluster.create(type, {
    apiVersion: type.apiVersion,
    kind: type.kind,
    metadata: { name, namespace: 'default' },
  } as KubeObject);
  return { apiVersion: type.apiVersion, kind: type.kind, name, uid: created.metadata.uid, controller: true };
}

/** Every series of a metric as `{labels, value}`. */
async function series(env: ControllerEnv, name: string) {
  const metric = env.registry.getSingleMetric(name);
  if (metric === undefined) return [];
  // Summaries report `_sum` and `_count` as values carrying their own metricName.
  const values = (await metric.get()).values as { labels: object; value: number; metricName?: string }[];
  return values.map((v) => ({
    labels: v.labels as Record<string, string>,
    value: v.value,
    ...(v.metricName === undefined ? {} : { metricName: v.metricName }),
  }));
}

async function seriesValue(env: ControllerEnv, name: string, labels: Record<string, string>) {
  const matching = (await series(env, name)).filter((s) =>
    Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (matching.length !== 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${matching.length} series`);
  return matching[0]?.value;
}

/** `_sum` and `_count` of the startup summary. */
async function startupTotals(env: ControllerEnv) {
  const all = await series(env, MetricNames.PodsStartupDuration);
  const pick = (suffix: string) =>
    all.find((s) => s.metricName === `${MetricNames.PodsStartupDuration}${suffix}`)?.value;
  return { sum: pick('_sum'), count: pick('_count') };
}

describe('metrics.node', () => {
  it('reports allocatable, pod and daemon requests and limits, overhead and utilization per node', async () => {
    const { env } = await newEnv();
    await env.create(Nodes, managedNode('n1'));
    await env.create(
      Pods,
      aRunningPod('n1', {
        metadata: { name: 'app' },
        spec: {
          containers: [
            {
              name: 'app',
              image: 'x',
              resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '2' } },
            },
          ],
        },
      }),
    );
    await env.create(
      Pods,
      aRunningPod('n1', {
        metadata: {
          name: 'daemon',
          ownerReferences: [await ownerRef(env, DaemonSets, 'ds')],
        },
        spec: {
          containers: [
            {
              name: 'd',
              image: 'x',
              resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } },
            },
          ],
        },
      }),
    );
    await env.create(Pods, aRunningPod('n1', { metadata: { name: 'done' }, status: { phase: 'Succeeded' } }));
    await env.settle();

    const cpu = { node_name: 'n1', resource_type: 'cpu' };
    const memory = { node_name: 'n1', resource_type: 'memory' };
    expect(await seriesValue(env, MetricNames.NodesAllocatable, cpu)).toBeCloseTo(3.8);
    expect(
      await seriesValue(env, MetricNames.NodesAllocatable, { node_name: 'n1', resource_type: 'pods' }),
    ).toBe(110);
    expect(await seriesValue(env, MetricNames.NodesTotalPodRequests, cpu)).toBeCloseTo(1.1);
    expect(await seriesValue(env, MetricNames.NodesTotalPodRequests, memory)).toBe(GiB + 64 * MiB);
    expect(await seriesValue(env, MetricNames.NodesTotalPodLimits, cpu)).toBe(2);
    expect(await seriesValue(env, MetricNames.NodesTotalPodLimits, memory)).toBe(128 * MiB);
    expect(await seriesValue(env, MetricNames.NodesTotalDaemonRequests, cpu)).toBeCloseTo(0.1);
    expect(await seriesValue(env, MetricNames.NodesTotalDaemonLimits, memory)).toBe(128 * MiB);
    expect(await seriesValue(env, MetricNames.NodesSystemOverhead, cpu)).toBeCloseTo(0.2);
    expect(await seriesValue(env, MetricNames.NodesSystemOverhead, memory)).toBe(GiB);
    expect(await seriesValue(env, MetricNames.ClusterUtilization, { resource_type: 'cpu' })).toBeCloseTo(
      (1.1 / 3.8) * 100,
    );

    const [one] = await series(env, MetricNames.NodesAllocatable);
    expect(one?.labels).toEqual({
      arch: 'amd64',
      capacity_type: 'spot',
      instance_type: 'fake.large',
      managed: 'true',
      node_name: 'n1',
      nodepool: 'default',
      os: 'linux',
      phase: '',
      region: '',
      resource_type: 'cpu',
      windows_build: '',
      zone: 'zone-a',
    });
  });

  it('follows pods and label changes and leaves no series once the node is gone', async () => {
    const { env } = await newEnv();
    await env.create(Nodes, managedNode('n1'));
    await env.create(Nodes, managedNode('n2'));
    await env.create(Pods, aRunningPod('n1', { metadata: { name: 'a' } }));
    await env.settle();
    expect(
      await seriesValue(env, MetricNames.NodesTotalPodRequests, { node_name: 'n1', resource_type: 'cpu' }),
    ).toBeCloseTo(0.1);
    expect(await seriesValue(env, MetricNames.ClusterUtilization, { resource_type: 'cpu' })).toBeCloseTo(
      (0.1 / 7.6) * 100,
    );
    // Ages are read at scrape time: a minute later, a minute older.
    const age = () => seriesValue(env, MetricNames.NodesCurrentLifetime, { node_name: 'n2' });
    const before = await age();
    await env.advance(60_000);
    expect((await age()) ?? 0).toBeCloseTo((before ?? 0) + 60);

    await env.cluster.delete(Pods, { name: 'a', namespace: 'default' });
    await env.cluster.patch(Nodes, { name: 'n1' }, { metadata: { labels: { [Labels.Zone]: 'zone-b' } } });
    await env.settle();
    const n1 = (await series(env, MetricNames.NodesAllocatable)).filter((s) => s.labels.node_name === 'n1');
    expect(new Set(n1.map((s) => s.labels.zone))).toEqual(new Set(['zone-b']));
    expect(
      (await series(env, MetricNames.NodesTotalPodRequests)).filter((s) => s.labels.node_name === 'n1'),
    ).toEqual([]);
    expect(await seriesValue(env, MetricNames.ClusterUtilization, { resource_type: 'cpu' })).toBe(0);

    await env.cluster.delete(Nodes, { name: 'n1' });
    await env.cluster.delete(Nodes, { name: 'n2' });
    await env.settle();
    for (const name of [
      MetricNames.NodesAllocatable,
      MetricNames.NodesSystemOverhead,
      MetricNames.ClusterUtilization,
      MetricNames.NodesCurrentLifetime,
    ]) {
      expect(await series(env, name)).toEqual([]);
    }
  });
});

describe('metrics.pod', () => {
  it('labels a pod with its owner, node and phase, replaces the series as it moves, and drops it when gone', async () => {
    const { env } = await newEnv();
    await env.create(Nodes, managedNode('n1'));
    const owner = await ownerRef(env, ReplicaSets, 'web-1');
    await env.create(Pods, aPod({ metadata: { name: 'web', ownerReferences: [owner] } }));
    await env.settle();
    expect(await series(env, MetricNames.PodsState)).toEqual([
      {
        labels: {
          name: 'web',
          namespace: 'default',
          owner: '/apis/apps/v1/namespaces/default/replicasets/web-1',
          node: '',
          scheduled: 'false',
          nodepool: '',
          zone: '',
          arch: '',
          capacity_type: '',
          instance_type: '',
          phase: 'Pending',
          ready: 'false',
          managed: 'false',
        },
        value: 1,
      },
    ]);

    await env.cluster.patch(Pods, { name: 'web', namespace: 'default' }, { spec: { nodeName: 'n1' } });
    await env.advance(42_000);
    const readyAt = new Date(env.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
    await env.cluster.patchStatus(
      Pods,
      { name: 'web', namespace: 'default' },
      {
        status: {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: readyAt }],
        },
      },
    );
    await env.settle();
    const running = await series(env, MetricNames.PodsState);
    expect(running).toHaveLength(1);
    expect(running[0]?.labels).toMatchObject({
      node: 'n1',
      scheduled: 'true',
      nodepool: 'default',
      zone: 'zone-a',
      phase: 'Running',
      ready: 'true',
      managed: 'true',
    });

    expect(await startupTotals(env)).toEqual({ sum: 42, count: 1 });

    await env.cluster.patch(Nodes, { name: 'n1' }, { metadata: { labels: { [Labels.Zone]: 'zone-b' } } });
    await env.settle();
    expect((await series(env, MetricNames.PodsState)).map((s) => s.labels.zone)).toEqual(['zone-b']);

    await env.cluster.delete(Pods, { name: 'web', namespace: 'default' });
    await env.settle();
    expect(await series(env, MetricNames.PodsState)).toEqual([]);
  });

  it('does not observe the startup of pods already Ready when first seen', async () => {
    const { env, start } = await newEnv({ startEmpty: false });
    await env.create(Nodes, managedNode('n1'));
    await env.create(Pods, aRunningPod('n1', { metadata: { name: 'old' } }));
    await start();
    expect((await series(env, MetricNames.PodsState)).map((s) => s.labels.name)).toEqual(['old']);
    expect(await startupTotals(env)).toEqual({ sum: 0, count: 0 });
  });
});

describe('metrics.pod waits', () => {
  /** `_sum` and `_count` of the bound-duration histogram. */
  async function boundTotals(env: ControllerEnv) {
    const all = await series(env, MetricNames.PodsBoundDuration);
    const pick = (suffix: string) =>
      all.find((s) => s.metricName === `${MetricNames.PodsBoundDuration}${suffix}`)?.value;
    return { sum: pick('_sum'), count: pick('_count') };
  }
  const at = (env: ControllerEnv) => new Date(env.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  const key = (name: string) => ({ name, namespace: 'default' });
  /** Binds the pod to `node` now (kube-scheduler's writes); resolves to the binding time. */
  async function bind(env: ControllerEnv, name: string, node: string): Promise<string> {
    const scheduledAt = at(env);
    await env.cluster.patch(Pods, key(name), { spec: { nodeName: node } });
    await env.cluster.patchStatus(Pods, key(name), {
      status: { conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: scheduledAt }] },
    });
    await env.settle();
    return scheduledAt;
  }
  /** Marks the bound pod Running and Ready now (the kubelet's write). */
  async function markReady(env: ControllerEnv, name: string, scheduledAt: string): Promise<void> {
    await env.cluster.patchStatus(Pods, key(name), {
      status: {
        phase: 'Running',
        conditions: [
          { type: 'PodScheduled', status: 'True', lastTransitionTime: scheduledAt },
          { type: 'Ready', status: 'True', lastTransitionTime: at(env) },
        ],
      },
    });
    await env.settle();
  }

  it('reports each waiting pod until it binds and starts, then observes the durations once', async () => {
    const { env } = await newEnv();
    await env.create(Nodes, managedNode('n1'));
    await env.create(Pods, aPod({ metadata: { name: 'web' } }));
    await env.settle();
    await env.advance(30_000);
    expect(await series(env, MetricNames.PodsUnboundTime)).toEqual([
      { labels: { name: 'web', namespace: 'default' }, value: 30 },
    ]);
    expect(await series(env, MetricNames.PodsUnstartedTime)).toEqual([
      { labels: { name: 'web', namespace: 'default' }, value: 30 },
    ]);

    const scheduledAt = await bind(env, 'web', 'n1');
    await env.advance(20_000);
    expect(await series(env, MetricNames.PodsUnboundTime)).toEqual([]);
    expect(await boundTotals(env)).toEqual({ sum: 30, count: 1 });
    expect(await series(env, MetricNames.PodsUnstartedTime)).toEqual([
      { labels: { name: 'web', namespace: 'default' }, value: 50 },
    ]);

    await markReady(env, 'web', scheduledAt);
    expect(await series(env, MetricNames.PodsUnstartedTime)).toEqual([]);
    expect(await startupTotals(env)).toEqual({ sum: 50, count: 1 });
    // Later updates observe nothing again.
    await env.cluster.patch(Pods, key('web'), { metadata: { labels: { touched: 'yes' } } });
    await env.settle();
    expect(await boundTotals(env)).toEqual({ sum: 30, count: 1 });
    expect(await startupTotals(env)).toEqual({ sum: 50, count: 1 });
  });

  it('measures the provisioning waits from the pass that placed the pod, and the undecided wait from the first pass', async () => {
    const { env, state } = await newEnv();
    await env.create(Nodes, managedNode('n1'));
    await env.create(Pods, aPod({ metadata: { name: 'web' } }));
    await env.settle();
    await env.advance(10_000);
    // Not yet seen by a provisioning pass: no provisioning series.
    expect(await series(env, MetricNames.PodsProvisioningSchedulingUndecidedTime)).toEqual([]);
    state.schedulingTimes.ack('default/web', env.clock.now());
    await env.advance(4_000);
    expect(await series(env, MetricNames.PodsProvisioningSchedulingUndecidedTime)).toEqual([
      { labels: { name: 'web', namespace: 'default' }, value: 4 },
    ]);
    expect(await series(env, MetricNames.PodsProvisioningUnboundTime)).toEqual([]);
    state.schedulingTimes.decide('default/web', env.clock.now(), true);
    await env.advance(6_000);
    expect(await series(env, MetricNames.PodsProvisioningSchedulingUndecidedTime)).toEqual([]);
    expect(await series(env, MetricNames.PodsProvisioningUnboundTime)).toEqual([
      { labels: { name: 'web', namespace: 'default' }, value: 6 },
    ]);
    expect(await series(env, MetricNames.PodsUnboundTime)).toEqual([
      { labels: { name: 'web', namespace: 'default' }, value: 20 },
    ]);

    const scheduledAt = await bind(env, 'web', 'n1');
    await env.advance(10_000);
    expect(await series(env, MetricNames.PodsProvisioningUnstartedTime)).toEqual([
      { labels: { name: 'web', namespace: 'default' }, value: 16 },
    ]);
    await markReady(env, 'web', scheduledAt);
    const totals = async (name: string) => {
      const all = await series(env, name);
      return [`${name}_sum`, `${name}_count`].map((m) => all.find((s) => s.metricName === m)?.value);
    };
    expect(await totals(MetricNames.PodsProvisioningBoundDuration)).toEqual([6, 1]);
    expect(await totals(MetricNames.PodsProvisioningStartupDuration)).toEqual([16, 1]);
    expect(await series(env, MetricNames.PodsProvisioningUnstartedTime)).toEqual([]);
    // Started: its milestones are spent.
    expect(state.schedulingTimes.of('default/web')).toBeUndefined();
  });

  it('hands every scrape of a waiting pod the same labels object, across its reconciles', async () => {
    const { env, state } = await newEnv();
    await env.create(Pods, aPod({ metadata: { name: 'web' } }));
    await env.settle();
    state.schedulingTimes.ack('default/web', env.clock.now());
    const waits = [
      MetricNames.PodsUnboundTime,
      MetricNames.PodsUnstartedTime,
      MetricNames.PodsProvisioningSchedulingUndecidedTime,
    ];
    // /metrics writes a series' label text once per labels object, so a new object per scrape
    // (or per reconcile) would write every waiting pod's labels again at every scrape.
    const labelObjects = async (names: readonly string[]) => {
      const all: object[] = [];
      for (const name of names) {
        const metric = env.registry.getSingleMetric(name);
        for (const v of (await metric?.get())?.values ?? []) all.push(v.labels);
      }
      return all;
    };
    const first = await labelObjects(waits);
    expect(first).toHaveLength(3);
    await env.advance(5_000);
    await env.cluster.patch(Pods, key('web'), { metadata: { labels: { touched: 'yes' } } });
    await env.settle();
    const second = await labelObjects(waits);
    for (const [i, labels] of second.entries()) expect(labels).toBe(first[i]);

    state.schedulingTimes.decide('default/web', env.clock.now(), true);
    const placed = [MetricNames.PodsProvisioningUnboundTime, MetricNames.PodsProvisioningUnstartedTime];
    const once = await labelObjects(placed);
    await env.advance(5_000);
    const again = await labelObjects(placed);
    expect(once).toHaveLength(2);
    for (const [i, labels] of again.entries()) expect(labels).toBe(once[i]);
    // Every gauge of the pod shares the one object.
    expect(once[0]).toBe(first[0]);
  });

  it('drops a waiting pod that is deleted or finishes, without observing it', async () => {
    const { env } = await newEnv();
    await env.create(Pods, aPod({ metadata: { name: 'gone' } }));
    await env.create(Pods, aPod({ metadata: { name: 'failed' } }));
    await env.create(Pods, aPod({ metadata: { name: 'waits' } }));
    await env.settle();
    expect((await series(env, MetricNames.PodsUnboundTime)).map((s) => s.labels.name).sort()).toEqual([
      'failed',
      'gone',
      'waits',
    ]);

    await env.cluster.delete(Pods, key('gone'));
    await env.cluster.patchStatus(Pods, key('failed'), { status: { phase: 'Failed' } });
    await env.settle();
    for (const name of [MetricNames.PodsUnboundTime, MetricNames.PodsUnstartedTime]) {
      expect((await series(env, name)).map((s) => s.labels.name)).toEqual(['waits']);
    }
    expect(await boundTotals(env)).toEqual({ sum: 0, count: 0 });
    expect(await startupTotals(env)).toEqual({ sum: 0, count: 0 });
  });

  it('does not report pods already bound and Ready when first seen', async () => {
    const { env, start } = await newEnv({ startEmpty: false });
    await env.create(Nodes, managedNode('n1'));
    await env.create(Pods, aRunningPod('n1', { metadata: { name: 'old' } }));
    await start();
    expect(await series(env, MetricNames.PodsUnboundTime)).toEqual([]);
    expect(await series(env, MetricNames.PodsUnstartedTime)).toEqual([]);
    expect(await boundTotals(env)).toEqual({ sum: 0, count: 0 });
  });
});

describe('metrics.nodepool', () => {
  it('reports usage, limits and allowed disruptions per reason, and drops them with the pool', async () => {
    const { env } = await newEnv();
    await env.create(
      NodePools,
      aNodePool({
        spec: {
          limits: { cpu: '100', memory: '400Gi' },
          disruption: { budgets: [{ nodes: '2' }, { nodes: '0', reasons: ['Drifted'] }] },
        },
        status: { resources: { cpu: '12', memory: '48Gi' } },
      }),
    );
    await env.create(Nodes, managedNode('n1'));
    await env.create(Nodes, managedNode('n2'));
    await env.create(
      Nodes,
      aNode({
        ...managedNode('n3'),
        status: {
          conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z' }],
        },
      }),
    );
    await env.settle();
    // A pool's figures are computed at most once a second.
    await env.advance(1_000);

    expect(
      await seriesValue(env, MetricNames.NodePoolsUsage, { nodepool: 'default', resource_type: 'cpu' }),
    ).toBe(12);
    expect(
      await seriesValue(env, MetricNames.NodePoolsUsage, { nodepool: 'default', resource_type: 'memory' }),
    ).toBe(48 * GiB);
    expect(
      await seriesValue(env, MetricNames.NodePoolsLimit, { nodepool: 'default', resource_type: 'cpu' }),
    ).toBe(100);
    const allowed = await series(env, MetricNames.NodePoolsAllowedDisruptions);
    // Budgets allow 2 over three initialized nodes; the NotReady one uses one up already.
    expect(Object.fromEntries(allowed.map((s) => [s.labels.reason, s.value]))).toEqual({
      underutilized: 1,
      empty: 1,
      drifted: 0,
    });
    // No catalog exported yet: the pool's nodes have no known price, each a cost-tracking error
    // once, however often it is scraped.
    expect(await seriesValue(env, MetricNames.NodePoolsCost, { nodepool: 'default' })).toBe(0);
    expect(await seriesValue(env, MetricNames.NodePoolsCostTrackerErrors, { nodepool: 'default' })).toBe(3);
    expect(await seriesValue(env, MetricNames.NodePoolsCostTrackerErrors, { nodepool: 'default' })).toBe(3);
    cloudProviderMetrics(env.registry).offeringPrice.set(
      { instance_type: 'fake.large', capacity_type: 'spot', zone: 'zone-a' },
      0.25,
    );
    expect(await seriesValue(env, MetricNames.NodePoolsCost, { nodepool: 'default' })).toBeCloseTo(0.75);
    expect(await seriesValue(env, MetricNames.NodePoolsCostTrackerErrors, { nodepool: 'default' })).toBe(3);
    const consuming = await series(env, MetricNames.NodePoolsNodesConsumingBudgets);
    expect(Object.fromEntries(consuming.map((s) => [s.labels.reason, s.value]))).toEqual({
      underutilized: 1,
      empty: 1,
      drifted: 1,
    });

    // n1 goes NotReady right after a computation: the figures follow a second later, not at once.
    await env.cluster.patchStatus(
      Nodes,
      { name: 'n1' },
      {
        status: {
          conditions: [{ type: 'Ready', status: 'False', lastTransitionTime: '2026-01-01T00:00:00Z' }],
        },
      },
    );
    await env.settle();
    const allowedNow = async () =>
      Object.fromEntries(
        (await series(env, MetricNames.NodePoolsAllowedDisruptions)).map((s) => [s.labels.reason, s.value]),
      );
    expect(await allowedNow()).toEqual({ underutilized: 1, empty: 1, drifted: 0 });
    await env.advance(1_000);
    expect(await allowedNow()).toEqual({ underutilized: 0, empty: 0, drifted: 0 });

    await env.cluster.delete(NodePools, { name: 'default' });
    await env.settle();
    for (const name of [
      MetricNames.NodePoolsUsage,
      MetricNames.NodePoolsLimit,
      MetricNames.NodePoolsAllowedDisruptions,
      MetricNames.NodePoolsNodesConsumingBudgets,
    ]) {
      expect(await series(env, name)).toEqual([]);
    }
  });

  it('follows a scheduled budget as its window closes, without any object changing', async () => {
    const { env } = await newEnv();
    // ControllerEnv starts at 09:00 UTC: the business-hours budget forbids disruption.
    await env.create(
      NodePools,
      aNodePool({
        spec: {
          disruption: { budgets: [{ nodes: '10' }, { nodes: '0', schedule: '0 9 * * *', duration: '1h' }] },
        },
      }),
    );
    await env.create(Nodes, managedNode('n1'));
    await env.settle();
    const empty = { nodepool: 'default', reason: 'empty' };
    expect(await seriesValue(env, MetricNames.NodePoolsAllowedDisruptions, empty)).toBe(0);
    await env.advance(61 * 60_000);
    expect(await seriesValue(env, MetricNames.NodePoolsAllowedDisruptions, empty)).toBe(10);
  });
});
