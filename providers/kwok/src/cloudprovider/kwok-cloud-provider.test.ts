import { Labels, type NodeClaim } from '@nodewright/core/apis';
import { FakeClock, ManualTimers } from '@nodewright/core/clock';
import {
  isInsufficientCapacity,
  isNodeClaimNotFound,
  isNodeClassNotReady,
  UnavailableOfferingsCache,
} from '@nodewright/core/cloudprovider';
import {
  type ClusterPort,
  InternalError,
  MemoryCluster,
  type ResourceType,
  TooManyRequestsError,
  Nodes as TypedNodes,
} from '@nodewright/core/kube';
import { aNodeClaim } from '@nodewright/core/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { KWOKNodeClassAnnotations } from '../apis/hash.js';
import { KWOKNodeClasses } from '../apis/resource-type.js';
import { KwokNodeClassStatusController } from '../controllers/nodeclass-status-controller.js';
import { KwokCloudProvider, NodeClassDrift } from './kwok-cloud-provider.js';
import type { KwokNode } from './kwok-node.js';
import { KwokNodeLabels } from './labels.js';

// The port's contract is kind-agnostic: these tests write objects with only the fields at stake.
const Nodes: ResourceType = TypedNodes;

const CLUSTER = 'test-cluster';

interface Env {
  clock: FakeClock;
  timers: ManualTimers;
  memory: MemoryCluster;
  cache: UnavailableOfferingsCache;
  provider: KwokCloudProvider;
  /** Fails the next calls through the provider's port: 429s, then 500s. */
  fail(throttled: number, serverErrors: number): void;
  calls(): number;
}

/** A port in front of the memory cluster that counts calls and fails the next ones on request. */
function faulty(
  inner: ClusterPort,
  state: { calls: number; throttled: number; errors: number },
): ClusterPort {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'watch') return value;
      return async (...args: unknown[]) => {
        state.calls++;
        if (state.throttled > 0) {
          state.throttled--;
          throw new TooManyRequestsError('throttled');
        }
        if (state.errors > 0) {
          state.errors--;
          throw new InternalError('boom');
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

async function makeEnv(spec: Record<string, unknown> = {}): Promise<Env> {
  const clock = new FakeClock(Date.UTC(2026, 0, 1));
  const timers = new ManualTimers(clock);
  const memory = new MemoryCluster({ clock, kinds: [KWOKNodeClasses] });
  await memory.create(KWOKNodeClasses, {
    apiVersion: 'karpenter.kwok.sh/v1alpha1',
    kind: 'KWOKNodeClass',
    metadata: { name: 'default' },
    spec,
  });
  await new KwokNodeClassStatusController({ cluster: memory, clock }).reconcile({ name: 'default' });
  const state = { calls: 0, throttled: 0, errors: 0 };
  const cache = new UnavailableOfferingsCache(clock);
  const provider = new KwokCloudProvider({
    cluster: faulty(memory, state),
    clock,
    timers,
    clusterName: CLUSTER,
    unavailableOfferings: cache,
  });
  return {
    clock,
    timers,
    memory,
    cache,
    provider,
    fail(throttled, errors) {
      state.throttled = throttled;
      state.errors = errors;
    },
    calls: () => state.calls,
  };
}

/** Settles `p`, firing due timers (backoff sleeps) whenever it is waiting on them. */
async function drive<T>(timers: ManualTimers, p: Promise<T>): Promise<T> {
  let done = false;
  p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let i = 0; i < 200 && !done; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    const next = timers.nextAt();
    if (!done && next !== undefined) await timers.runUntil(next);
  }
  return p;
}

function claim(name: string, extra: NodeClaim['spec']['requirements'] = []): NodeClaim {
  return aNodeClaim({
    metadata: { name },
    spec: {
      nodeClassRef: { group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name: 'default' },
      requirements: [
        { key: Labels.NodePool, operator: 'In', values: ['default'] },
        { key: Labels.Arch, operator: 'In', values: ['amd64'] },
        { key: Labels.OS, operator: 'In', values: ['linux'] },
        ...extra,
      ],
      resources: { requests: { cpu: '3', memory: '4Gi' } },
    },
  });
}

async function thrown(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('KwokCloudProvider', () => {
  let env: Env;
  beforeEach(async () => {
    env = await makeEnv();
  });

  it('launches a Node for the claim: name, providerID, kwok annotation, labels, unregistered taint, capacity', async () => {
    const created = await env.provider.create(claim('a'));
    const node = (await env.memory.get(Nodes as never, { name: 'a' })) as KwokNode;
    expect(node.spec?.providerID).toBe('kwok://a');
    expect(created.status?.providerID).toBe('kwok://a');
    expect(node.metadata.annotations?.['kwok.x-k8s.io/node']).toBe('fake');
    const labels = node.metadata.labels ?? {};
    expect(labels[KwokNodeLabels.ManagedBy]).toBe(CLUSTER);
    expect(labels[Labels.Hostname]).toBe('a');
    expect(labels[Labels.Arch]).toBe('amd64');
    expect(labels[Labels.OS]).toBe('linux');
    expect(labels[Labels.NodePool]).toBe('default');
    expect(labels[Labels.InstanceType]).toBe(created.metadata.labels?.[Labels.InstanceType]);
    expect(labels[Labels.Zone]).toMatch(/^test-zone-[a-d]$/);
    expect(node.spec?.taints).toContainEqual({ key: 'karpenter.sh/unregistered', effect: 'NoExecute' });
    expect(node.status?.capacity).toEqual(created.status?.capacity);
    expect(node.status?.allocatable).toEqual(created.status?.allocatable);
    expect(created.metadata.annotations?.[KWOKNodeClassAnnotations.Hash]).toBeTruthy();
  });

  it('picks the cheapest offering of the cheapest type that fits: 3 vCPU needs a 4-vCPU type, spot is cheaper', async () => {
    const created = await env.provider.create(claim('a'));
    const types = await env.provider.getInstanceTypes(undefined as never);
    const chosen = types.find((t) => t.name === created.metadata.labels?.[Labels.InstanceType]);
    expect(chosen?.capacity.get('cpu')?.toString()).toBe('4');
    expect(created.metadata.labels?.[Labels.CapacityType]).toBe('spot');
    // c (2 GiB per vCPU) is the cheapest family at 4 vCPU: 8 GiB fits 4 GiB.
    expect(created.metadata.labels?.['karpenter.kwok.sh/instance-family']).toBe('c');
  });

  it('is idempotent per claim name and keeps one Node', async () => {
    const first = await env.provider.create(claim('a'));
    const second = await env.provider.create(claim('a'));
    expect(second.status?.providerID).toBe(first.status?.providerID);
    expect((await env.memory.list(Nodes)).items).toHaveLength(1);
  });

  it('refuses a Node name taken by a Node it did not launch', async () => {
    await env.memory.create(Nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'a' } });
    const err = await thrown(env.provider.create(claim('a')));
    expect((err as Error).name).toBe('CreateError');
    expect((err as Error).message).toContain('NodeNameTaken');
  });

  it('NodeClassNotReady when the KWOKNodeClass is missing, not Ready, or of another kind', async () => {
    const missing = claim('a');
    missing.spec.nodeClassRef.name = 'nope';
    expect(isNodeClassNotReady(await thrown(env.provider.create(missing)))).toBe(true);
    const other = claim('b');
    other.spec.nodeClassRef = { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' };
    expect(isNodeClassNotReady(await thrown(env.provider.create(other)))).toBe(true);
    await env.memory.patchStatus(KWOKNodeClasses, { name: 'default' }, { status: { conditions: [] } });
    const err = await thrown(env.provider.create(claim('c')));
    expect(isNodeClassNotReady(err)).toBe(true);
    expect((err as Error).message).toContain('no Ready condition');
    expect((await env.memory.list(Nodes)).items).toHaveLength(0);
  });

  it('insufficient capacity: refused offerings are marked unavailable and the next cheapest is launched', async () => {
    const cheapest = await env.provider.create(claim('probe'));
    await env.provider.delete(cheapest);
    const key = {
      instanceType: cheapest.metadata.labels![Labels.InstanceType]!,
      zone: cheapest.metadata.labels![Labels.Zone]!,
      capacityType: cheapest.metadata.labels![Labels.CapacityType]!,
    };
    env.provider.faults.insufficientCapacity(key);
    const next = await env.provider.create(claim('a'));
    expect(env.cache.isUnavailable(key)).toBe(true);
    expect([next.metadata.labels?.[Labels.InstanceType], next.metadata.labels?.[Labels.Zone]]).not.toEqual([
      key.instanceType,
      key.zone,
    ]);
    const pinned = claim('b', [
      { key: Labels.InstanceType, operator: 'In', values: [key.instanceType] },
      { key: Labels.Zone, operator: 'In', values: [key.zone] },
      { key: Labels.CapacityType, operator: 'In', values: [key.capacityType] },
    ]);
    const err = await thrown(env.provider.create(pinned));
    expect(isInsufficientCapacity(err)).toBe(true);
    // The cache expires: after its 3 min the offering is tried (and refused) again.
    env.clock.step(3 * 60_000);
    expect(env.cache.isUnavailable(key)).toBe(false);
    const again = await thrown(env.provider.create(pinned));
    expect(isInsufficientCapacity(again)).toBe(true);
    expect((again as { offerings: string[] }).offerings).toEqual([
      `${key.capacityType}:${key.instanceType}:${key.zone}`,
    ]);
  });

  it('registration delay: the Node appears only after nodeRegistrationDelay; get and list see the pending launch', async () => {
    env = await makeEnv({ nodeRegistrationDelay: '30s' });
    const created = await env.provider.create(claim('a'));
    expect((await env.memory.list(Nodes)).items).toHaveLength(0);
    expect((await env.provider.get('kwok://a')).status?.providerID).toBe('kwok://a');
    expect((await env.provider.list()).map((c) => c.metadata.name)).toEqual(['a']);
    expect((await env.provider.create(claim('a'))).status?.providerID).toBe(created.status?.providerID);
    await env.timers.advance(29_999);
    expect((await env.memory.list(Nodes)).items).toHaveLength(0);
    await env.timers.advance(1, () => new Promise((resolve) => setImmediate(resolve)));
    await new Promise((resolve) => setImmediate(resolve));
    expect((await env.memory.list(Nodes)).items.map((n) => n.metadata.name)).toEqual(['a']);
    expect(env.provider.pendingLaunches()).toBe(0);
  });

  it('delete of a pending launch cancels it: no Node ever appears', async () => {
    env = await makeEnv({ nodeRegistrationDelay: '30s' });
    const created = await env.provider.create(claim('a'));
    await env.provider.delete(created);
    expect(isNodeClaimNotFound(await thrown(env.provider.delete(created)))).toBe(true);
    await env.timers.advance(60_000);
    expect((await env.memory.list(Nodes)).items).toHaveLength(0);
  });

  it('delete removes the Node, then answers NodeClaimNotFound, even while a finalizer holds the Node', async () => {
    const created = await env.provider.create(claim('a'));
    await env.memory.patch(Nodes, { name: 'a' }, { metadata: { finalizers: ['karpenter.sh/termination'] } });
    await env.provider.delete(created);
    // core's termination finalizer on this very Node waits for NotFound: "still terminating"
    // here would hold the Node forever
    expect(isNodeClaimNotFound(await thrown(env.provider.delete(created)))).toBe(true);
    expect((await env.provider.get('kwok://a')).metadata.deletionTimestamp).toBeDefined();
    await env.memory.patch(Nodes, { name: 'a' }, { metadata: { finalizers: null } });
    expect(isNodeClaimNotFound(await thrown(env.provider.delete(created)))).toBe(true);
    expect(isNodeClaimNotFound(await thrown(env.provider.get('kwok://a')))).toBe(true);
  });

  it("list sees only this cluster's Nodes; get refuses a Node of another cluster or a foreign providerID", async () => {
    await env.provider.create(claim('a'));
    await env.memory.create(Nodes, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'b', labels: { [KwokNodeLabels.ManagedBy]: 'other-cluster' } },
    });
    expect((await env.provider.list()).map((c) => c.metadata.name)).toEqual(['a']);
    expect(isNodeClaimNotFound(await thrown(env.provider.get('kwok://b')))).toBe(true);
    expect(isNodeClaimNotFound(await thrown(env.provider.get('aws:///us-east-1a/i-123')))).toBe(true);
  });

  it('retries throttled and failing cluster calls with backoff on the injected timers', async () => {
    env.fail(2, 2);
    const before = env.calls();
    const created = await drive(env.timers, env.provider.create(claim('a')));
    expect(created.status?.providerID).toBe('kwok://a');
    expect(env.calls() - before).toBeGreaterThanOrEqual(5);
  });

  it('gives up after the retry budget with the last server error', async () => {
    env.fail(0, 100);
    const err = await drive(env.timers, thrown(env.provider.create(claim('a'))));
    expect((err as Error).name).toBe('InternalError');
    expect(env.calls()).toBe(6);
  });

  it('drift: NodeClassDrift once the KWOKNodeClass spec changes, also for a claim without the annotation', async () => {
    const created = await env.provider.create(claim('a'));
    expect(await env.provider.isDrifted(created)).toBeUndefined();
    await env.memory.patch(KWOKNodeClasses, { name: 'default' }, { spec: { nodeRegistrationDelay: '5s' } });
    expect(await env.provider.isDrifted(created)).toBe(NodeClassDrift);
    const bare = structuredClone(created);
    delete bare.metadata.annotations;
    expect(await env.provider.isDrifted(bare)).toBe(NodeClassDrift);
  });

  it('getInstanceTypes reports offerings in the unavailable cache as unavailable, until they expire', async () => {
    const types = await env.provider.getInstanceTypes(undefined as never);
    expect(types).toHaveLength(144);
    const t = types[0]!;
    const o = t.offerings[0]!;
    const key = { instanceType: t.name, zone: o.zone, capacityType: o.capacityType };
    env.cache.markUnavailable(key, 'test', 60_000);
    const marked = await env.provider.getInstanceTypes(undefined as never);
    expect(marked[0]!.offerings[0]!.available).toBe(false);
    expect(marked[0]!.offerings.filter((x) => !x.available)).toHaveLength(1);
    env.clock.step(60_000);
    expect((await env.provider.getInstanceTypes(undefined as never))[0]!.offerings[0]!.available).toBe(true);
  });

  it('terminate deletes the Node (the cloud taking an instance) and is a no-op once it is gone', async () => {
    await env.provider.create(claim('a'));
    await env.provider.terminate('kwok://a');
    expect((await env.memory.list(Nodes)).items).toHaveLength(0);
    await expect(env.provider.terminate('kwok://a')).resolves.toBeUndefined();
    await expect(env.provider.terminate('aws:///x/i-1')).resolves.toBeUndefined();
  });
});
