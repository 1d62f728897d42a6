import { FakeClock, ManualTimers } from '@nodewright/core/clock';
import {
  type KubeObject,
  MemoryCluster,
  type ResourceType,
  Nodes as TypedNodes,
} from '@nodewright/core/kube';
import { describe, expect, it } from 'vitest';
import type { MockInstance, MockInstanceSource } from '../mock-instance.js';
import { KubeletHarness, type KubeletHarnessDeps } from './kubelet-harness.js';

// The port's contract is kind-agnostic: these tests write objects with only the fields at stake.
const Nodes: ResourceType = TypedNodes;

/** A mock cloud in a Map: `put` changes an instance and tells every watcher. */
class FakeSource implements MockInstanceSource {
  readonly instances = new Map<string, MockInstance>();
  readonly #listeners = new Set<(instance: MockInstance) => void>();

  watch(listener: (instance: MockInstance) => void): () => void {
    this.#listeners.add(listener);
    for (const instance of this.instances.values()) listener(instance);
    return () => this.#listeners.delete(listener);
  }

  put(instance: MockInstance): void {
    this.instances.set(instance.providerID, instance);
    for (const listener of this.#listeners) listener(instance);
  }

  listeners(): number {
    return this.#listeners.size;
  }
}

function instance(overrides: Partial<MockInstance> = {}): MockInstance {
  return {
    providerID: 'aws:///us-west-2a/i-0123456789abcdef0',
    nodeName: 'ip-10-0-0-1.us-west-2.compute.internal',
    instanceType: 'm5.large',
    zone: 'us-west-2a',
    capacityType: 'on-demand',
    architecture: 'amd64',
    capacity: { cpu: '2', memory: '8Gi', pods: '29' },
    allocatable: { cpu: '1930m', memory: '7Gi', pods: '29' },
    labels: { 'karpenter.sh/nodepool': 'default', team: 'a' },
    taints: [{ key: 'example.com/startup', effect: 'NoSchedule' }],
    state: 'running',
    launchedAt: 0,
    ...overrides,
  };
}

interface NodeView extends KubeObject {
  spec?: { providerID?: string; taints?: { key: string; effect: string; value?: string }[] };
  status?: {
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
    conditions?: Record<string, string>[];
  };
}

function fixture(
  options: Partial<Pick<KubeletHarnessDeps, 'retryDelayMs' | 'startupTaintRemoval' | 'holdNotReady'>> = {},
) {
  const clock = new FakeClock(0);
  const timers = new ManualTimers(clock);
  const cluster = new MemoryCluster({ clock });
  const source = new FakeSource();
  const errors: unknown[] = [];
  const harness = new KubeletHarness({
    cluster,
    source,
    timers,
    bootDelayMs: 5_000,
    onError: (error) => errors.push(error),
    clock,
    ...options,
  });
  const advance = async (ms: number) => {
    await timers.advance(ms, async () => {
      await harness.settled();
      await cluster.settled();
    });
    await harness.settled();
  };
  const nodes = async () => (await cluster.list<NodeView>(Nodes)).items;
  return { clock, timers, cluster, source, harness, errors, advance, nodes };
}

/**
 * A first harness registers `registered`'s Node and stops; a second starts on the same
 * cluster, cloud and timers, as after a test-process restart.
 */
async function restarted(
  registered: MockInstance,
  options: Partial<Pick<KubeletHarnessDeps, 'startupTaintRemoval'>> = {},
) {
  const first = fixture();
  first.source.put(registered);
  await first.harness.start();
  await first.advance(5_000);
  first.harness.stop();
  const second = new KubeletHarness({
    cluster: first.cluster,
    source: first.source,
    timers: first.timers,
    bootDelayMs: 5_000,
    ...options,
  });
  await second.start();
  return { first, second };
}

describe('KubeletHarness', () => {
  it('registers a running instance after the boot delay, as kubelet would', async () => {
    const { source, harness, advance, nodes } = fixture();
    source.put(instance());
    await harness.start();
    await advance(4_999);
    expect(await nodes()).toEqual([]);
    await advance(1);
    const [node, ...rest] = await nodes();
    expect(rest).toEqual([]);
    expect(node?.metadata.name).toBe('ip-10-0-0-1.us-west-2.compute.internal');
    expect(node?.spec?.providerID).toBe('aws:///us-west-2a/i-0123456789abcdef0');
    expect(node?.metadata.labels).toEqual({
      'karpenter.sh/nodepool': 'default',
      team: 'a',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/os': 'linux',
      'kubernetes.io/hostname': 'ip-10-0-0-1.us-west-2.compute.internal',
      'node.kubernetes.io/instance-type': 'm5.large',
      'topology.kubernetes.io/zone': 'us-west-2a',
      'karpenter.sh/capacity-type': 'on-demand',
    });
    expect(node?.metadata.annotations).toEqual({ 'kwok.x-k8s.io/node': 'fake' });
    expect(node?.spec?.taints).toEqual([
      { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
      { key: 'example.com/startup', effect: 'NoSchedule' },
    ]);
    expect(node?.status?.capacity).toEqual({ cpu: '2', memory: '8Gi', pods: '29' });
    expect(node?.status?.allocatable).toEqual({ cpu: '1930m', memory: '7Gi', pods: '29' });
    expect(harness.nodeNameOf('aws:///us-west-2a/i-0123456789abcdef0')).toBe(node?.metadata.name);
  });

  it('holds the Node of a broken kubelet at Ready=False, out of the hands of kwok', async () => {
    const { source, harness, advance, nodes } = fixture({
      holdNotReady: (i) => i.instanceType === 'm5.xlarge',
    });
    await harness.start();
    source.put(instance({ instanceType: 'm5.xlarge' }));
    source.put(instance({ providerID: 'aws:///us-west-2a/i-1', nodeName: 'healthy' }));
    await advance(5_000);
    const [broken, healthy] = ['ip-10-0-0-1.us-west-2.compute.internal', 'healthy'].map((name) =>
      nodes().then((all) => all.find((n) => n.metadata.name === name)),
    );
    expect((await broken)?.spec?.providerID).toBe('aws:///us-west-2a/i-0123456789abcdef0');
    expect((await broken)?.metadata.annotations?.['kwok.x-k8s.io/node']).toBeUndefined();
    expect((await broken)?.status?.conditions).toEqual([
      {
        type: 'Ready',
        status: 'False',
        reason: 'KubeletNotReady',
        message: 'container runtime network not ready (held by the kubelet harness)',
        lastHeartbeatTime: '1970-01-01T00:00:05Z',
        lastTransitionTime: '1970-01-01T00:00:05Z',
      },
    ]);
    expect((await broken)?.status?.capacity).toEqual({ cpu: '2', memory: '8Gi', pods: '29' });
    expect((await healthy)?.metadata.annotations).toEqual({ 'kwok.x-k8s.io/node': 'fake' });
    expect((await healthy)?.status?.conditions).toBeUndefined();
  });

  it('counts the boot from pending and registers once the instance runs', async () => {
    const { source, harness, advance, nodes } = fixture();
    await harness.start();
    source.put(instance({ state: 'pending' }));
    await advance(10_000);
    expect(await nodes()).toEqual([]);
    source.put(instance({ state: 'running' }));
    await advance(0);
    expect((await nodes()).map((n) => n.metadata.name)).toEqual(['ip-10-0-0-1.us-west-2.compute.internal']);
  });

  it('defaults allocatable to capacity and keeps a launch label from overriding the well-known ones', async () => {
    const { source, harness, advance, nodes } = fixture();
    await harness.start();
    const { allocatable: _, ...withoutAllocatable } = instance({
      labels: { 'topology.kubernetes.io/zone': 'elsewhere' },
    });
    source.put(withoutAllocatable);
    await advance(5_000);
    const [node] = await nodes();
    expect(node?.status?.allocatable).toEqual({ cpu: '2', memory: '8Gi', pods: '29' });
    expect(node?.metadata.labels?.['topology.kubernetes.io/zone']).toBe('us-west-2a');
  });

  it('deletes the Node when the instance terminates, and never registers one terminated while booting', async () => {
    const { source, harness, advance, nodes } = fixture();
    await harness.start();
    source.put(instance());
    source.put(instance({ providerID: 'aws:///us-west-2a/i-2', nodeName: 'node-2' }));
    await advance(1_000);
    source.put(instance({ providerID: 'aws:///us-west-2a/i-2', nodeName: 'node-2', state: 'terminated' }));
    await advance(4_000);
    expect((await nodes()).map((n) => n.metadata.name)).toEqual(['ip-10-0-0-1.us-west-2.compute.internal']);
    source.put(instance({ state: 'stopping' }));
    await advance(1_000);
    expect(await nodes()).toHaveLength(1);
    source.put(instance({ state: 'terminated' }));
    await advance(0);
    expect(await nodes()).toEqual([]);
    expect(harness.nodeNameOf('aws:///us-west-2a/i-0123456789abcdef0')).toBeUndefined();
  });

  it('adopts the Nodes of a previous run instead of recreating them, and still removes them on termination', async () => {
    const first = fixture();
    first.source.put(instance());
    await first.harness.start();
    await first.advance(5_000);
    const before = await first.nodes();
    first.harness.stop();
    expect(first.source.listeners()).toBe(0);

    // A second harness on the same cluster and cloud, as after a test-process restart.
    const second = new KubeletHarness({
      cluster: first.cluster,
      source: first.source,
      timers: first.timers,
      bootDelayMs: 5_000,
    });
    await second.start();
    expect(second.nodeNameOf('aws:///us-west-2a/i-0123456789abcdef0')).toBe(before[0]?.metadata.name);
    await first.timers.advance(10_000, () => second.settled());
    const after = await first.nodes();
    expect(after.map((n) => n.metadata.resourceVersion)).toEqual(
      before.map((n) => n.metadata.resourceVersion),
    );
    first.source.put(instance({ state: 'terminated' }));
    await second.settled();
    expect(await first.nodes()).toEqual([]);
  });

  it('adopts a same-named Node without status by reporting its status', async () => {
    const { cluster, source, harness, advance, nodes } = fixture();
    await cluster.create(Nodes, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'ip-10-0-0-1.us-west-2.compute.internal' },
    });
    await harness.start();
    source.put(instance());
    await advance(5_000);
    const [node] = await nodes();
    expect(node?.status?.capacity).toEqual({ cpu: '2', memory: '8Gi', pods: '29' });
  });

  it('reports a failed registration and retries it', async () => {
    const { cluster, source, harness, advance, nodes, errors } = fixture({ retryDelayMs: 2_000 });
    let failures = 1;
    const create = cluster.create.bind(cluster);
    cluster.create = ((...args: Parameters<typeof create>) => {
      if (failures-- > 0) return Promise.reject(new Error('apiserver unavailable'));
      return create(...args);
    }) as typeof cluster.create;
    await harness.start();
    source.put(instance());
    await advance(5_000);
    expect(errors.map((e) => (e as Error).message)).toEqual(['apiserver unavailable']);
    expect(await nodes()).toEqual([]);
    await advance(2_000);
    expect(await nodes()).toHaveLength(1);
  });

  describe('startupTaintRemoval (a DaemonSet lifting its startup taint)', () => {
    const DriverTaint = { key: 'example.com/driver-not-ready', effect: 'NoSchedule' } as const;
    const removal = { startupTaintRemoval: { keys: [DriverTaint.key], afterMs: 3_000 } };
    const tainted = (overrides: Partial<MockInstance> = {}) =>
      instance({
        taints: [{ key: 'example.com/gpu', value: 'true', effect: 'NoSchedule' }, DriverTaint],
        ...overrides,
      });
    const taintKeys = async (nodes: () => Promise<NodeView[]>) =>
      (await nodes()).map((n) => (n.spec?.taints ?? []).map((t) => t.key));
    /** What nodewright's registration controller does: takes karpenter.sh/unregistered off. */
    const register = async (cluster: MemoryCluster) => {
      for (const node of (await cluster.list<NodeView>(Nodes)).items) {
        const taints = (node.spec?.taints ?? []).filter((t) => t.key !== 'karpenter.sh/unregistered');
        await cluster.patch(Nodes, { name: String(node.metadata.name) }, { spec: { taints } });
      }
    };

    it('removes the given keys afterMs after registering the Node, and only those', async () => {
      const { cluster, source, harness, advance, nodes } = fixture(removal);
      await harness.start();
      source.put(tainted());
      await advance(5_000);
      await register(cluster);
      await advance(2_999);
      expect(await taintKeys(nodes)).toEqual([['example.com/gpu', 'example.com/driver-not-ready']]);
      await advance(1);
      const [node] = await nodes();
      expect(node?.spec?.taints).toEqual([{ key: 'example.com/gpu', value: 'true', effect: 'NoSchedule' }]);
    });

    it('waits while the Node still carries karpenter.sh/unregistered, checking again every retry delay', async () => {
      const { cluster, source, harness, advance, nodes, errors } = fixture({
        retryDelayMs: 1_000,
        ...removal,
      });
      await harness.start();
      source.put(tainted());
      await advance(5_000 + 3_000 + 10_000);
      expect(await taintKeys(nodes)).toEqual([
        ['karpenter.sh/unregistered', 'example.com/gpu', 'example.com/driver-not-ready'],
      ]);
      await register(cluster);
      await advance(1_000);
      expect(await taintKeys(nodes)).toEqual([['example.com/gpu']]);
      expect(errors).toEqual([]);
    });

    it('is off by default: the startup taint stays', async () => {
      const { cluster, source, harness, advance, nodes } = fixture();
      await harness.start();
      source.put(tainted());
      await advance(5_000);
      await register(cluster);
      await advance(60_000);
      expect(await taintKeys(nodes)).toEqual([['example.com/gpu', 'example.com/driver-not-ready']]);
    });

    it('retries on a fresh read when the Node changed meanwhile, never undoing the other change', async () => {
      const { cluster, source, harness, advance, nodes, errors } = fixture({
        retryDelayMs: 1_000,
        ...removal,
      });
      await harness.start();
      source.put(tainted());
      await advance(5_000);
      await register(cluster);
      // Between the harness's read and its write, another writer adds a taint.
      const get = cluster.get.bind(cluster);
      let raced = false;
      cluster.get = (async (...args: Parameters<typeof get>) => {
        const read = await get(...args);
        if (!raced) {
          raced = true;
          const name = String(read.metadata.name);
          const now = await get<NodeView>(Nodes, { name });
          await cluster.patch(
            Nodes,
            { name },
            {
              spec: {
                taints: [...(now.spec?.taints ?? []), { key: 'example.com/other', effect: 'NoSchedule' }],
              },
            },
          );
        }
        return read;
      }) as typeof cluster.get;
      await advance(3_000);
      expect(errors).toHaveLength(1);
      expect(await taintKeys(nodes)).toEqual([
        ['example.com/gpu', 'example.com/driver-not-ready', 'example.com/other'],
      ]);
      await advance(1_000);
      expect(await taintKeys(nodes)).toEqual([['example.com/gpu', 'example.com/other']]);
    });

    it('lifts the taint from an adopted Node too, counting from its adoption', async () => {
      const { first, second } = await restarted(tainted(), removal);
      await register(first.cluster);
      await first.timers.advance(2_999, () => second.settled());
      expect(await taintKeys(first.nodes)).toEqual([['example.com/gpu', 'example.com/driver-not-ready']]);
      await first.timers.advance(1, () => second.settled());
      await second.settled();
      expect(await taintKeys(first.nodes)).toEqual([['example.com/gpu']]);
    });

    it('cancels the removal when the instance terminates first', async () => {
      const { source, harness, advance, nodes, timers } = fixture(removal);
      await harness.start();
      source.put(tainted());
      await advance(5_000);
      source.put(tainted({ state: 'terminated' }));
      await advance(5_000);
      expect(await nodes()).toEqual([]);
      expect(timers.pending()).toBe(0);
    });
  });

  it('stops booting instances once stopped', async () => {
    const { source, harness, advance, nodes } = fixture();
    await harness.start();
    source.put(instance());
    harness.stop();
    await advance(10_000);
    expect(await nodes()).toEqual([]);
    await expect(harness.start()).rejects.toThrow(/already started/);
  });
});

/**
 * The same instance as each cloud's mock reports it: only the providerID format, the Node name
 * kubelet derives and the cloud's own instance type and zone names differ.
 */
const Clouds = [
  {
    cloud: 'aws',
    providerID: 'aws:///us-west-2a/i-0123456789abcdef0',
    nodeName: 'ip-10-0-0-1.us-west-2.compute.internal',
    instanceType: 'm5.large',
    zone: 'us-west-2a',
  },
  {
    cloud: 'azure',
    providerID:
      'azure:///subscriptions/0f9a3c1e-5b2d-4e6f-8a7b-9c0d1e2f3a4b/resourceGroups/MC_rg_cluster_eastus/providers/Microsoft.Compute/virtualMachines/aks-general-purpose-x7k2p',
    nodeName: 'aks-general-purpose-x7k2p',
    instanceType: 'Standard_D2s_v5',
    zone: 'eastus-1',
  },
  {
    cloud: 'gce',
    providerID: 'gce://contract-project/us-central1-a/general-purpose-x7k2p',
    nodeName: 'general-purpose-x7k2p',
    instanceType: 'n2-standard-2',
    zone: 'us-central1-a',
  },
] as const;

describe.each(Clouds)('KubeletHarness with $cloud providerIDs', (cloud) => {
  const own = (overrides: Partial<MockInstance> = {}) =>
    instance({
      providerID: cloud.providerID,
      nodeName: cloud.nodeName,
      instanceType: cloud.instanceType,
      zone: cloud.zone,
      capacityType: 'spot',
      ...overrides,
    });

  it('registers the Node under the cloud name after the boot delay, with its labels and taints', async () => {
    const { source, harness, advance, nodes } = fixture();
    await harness.start();
    source.put(own());
    await advance(4_999);
    expect(await nodes()).toEqual([]);
    await advance(1);
    const [node, ...rest] = await nodes();
    expect(rest).toEqual([]);
    expect(node?.metadata.name).toBe(cloud.nodeName);
    expect(node?.spec?.providerID).toBe(cloud.providerID);
    expect(node?.metadata.labels).toMatchObject({
      'kubernetes.io/hostname': cloud.nodeName,
      'node.kubernetes.io/instance-type': cloud.instanceType,
      'topology.kubernetes.io/zone': cloud.zone,
      'karpenter.sh/capacity-type': 'spot',
      team: 'a',
    });
    expect(node?.spec?.taints).toEqual([
      { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
      { key: 'example.com/startup', effect: 'NoSchedule' },
    ]);
    expect(harness.nodeNameOf(cloud.providerID)).toBe(cloud.nodeName);
  });

  it('removes the Node once the instance terminates', async () => {
    const { source, harness, advance, nodes } = fixture();
    await harness.start();
    source.put(own());
    await advance(5_000);
    expect((await nodes()).map((n) => n.metadata.name)).toEqual([cloud.nodeName]);
    source.put(own({ state: 'terminated' }));
    await advance(0);
    expect(await nodes()).toEqual([]);
    expect(harness.nodeNameOf(cloud.providerID)).toBeUndefined();
  });

  it('adopts a Node a previous run registered for this providerID', async () => {
    const { second } = await restarted(own());
    expect(second.nodeNameOf(cloud.providerID)).toBe(cloud.nodeName);
  });
});
