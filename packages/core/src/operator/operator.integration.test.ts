import { randomBytes } from 'node:crypto';
import type { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import { SystemClock, SystemTimers } from '../clock/index.js';
import { ClientNodeCluster } from '../kube/client-node/client-node-cluster.js';
import { kubeConfigFromFile } from '../kube/client-node/kube-config.js';
import { isNotFound } from '../kube/errors.js';
import type { UntypedObject } from '../kube/object.js';
import type { ResourceType } from '../kube/resource-type.js';
import { Events, Namespaces, NodeClaims, NodePools, Pods } from '../kube/resource-types.js';
import { alwaysReady } from '../nodepool/readiness/node-class-readiness.js';
import { FakeCloudProvider } from '../testing/fake-cloud-provider.js';
import { aNodePool } from '../testing/nodepool-builder.js';
import { Leases } from './leader-election/lease.js';
import { Operator } from './operator.js';
import type { ProviderPlugin } from './plugin/provider-plugin.js';
import { createLogger } from './runtime/logger.js';

// A pod written with only the fields at stake, as a kind-agnostic object.
const UntypedPods: ResourceType = Pods;

/*
 * Two operators in this process against the real control plane, contending for one Lease, with
 * a FakeCloudProvider behind a plugin (instances never become Nodes; the claims are what is
 * checked). Names are unique per run, so other suites sharing the cluster are not disturbed.
 */

const run = randomBytes(3).toString('hex');
const LEASE = { namespace: 'kube-system', name: `operator-it-${run}` };
const NAMESPACE = `operator-it-${run}`;
const POOL = `operator-it-${run}`;
const POOL_LABEL = 'nodewright.test/pool';

const clock = new SystemClock();
const timers = new SystemTimers();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function eventually<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | undefined>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`, { cause: last });
    await sleep(200);
  }
}

interface Replica {
  readonly identity: string;
  readonly operator: Operator;
  readonly lines: () => Record<string, unknown>[];
}

function fakePlugin(cloud: FakeCloudProvider): ProviderPlugin {
  return {
    name: 'fake',
    kinds: [],
    settings: {},
    create: async () => ({
      cloudProvider: cloud,
      controllers: [],
      nodeClassTypes: [],
      nodeClassReadiness: alwaysReady,
    }),
  };
}

/** Both replicas share one cloud, as two controller pods share one AWS account. */
const cloud = new FakeCloudProvider({ clock });

function replica(identity: string, kubeConfig: Awaited<ReturnType<typeof kubeConfigFromFile>>): Replica {
  const out: string[] = [];
  const destination = { write: (line: string) => void out.push(line) } as unknown as Writable;
  const operator = new Operator({
    environment: { clock, timers, logger: createLogger({ level: 'info', destination }) },
    plugin: fakePlugin(cloud),
    clusterName: 'operator-it',
    settings: {},
    kubeConfig,
    metricsPort: 0,
    healthPort: 0,
    host: '127.0.0.1',
    crds: 'install',
    leaderElection: { ...LEASE, identity },
    controllers: { provisioning: { batch: { idleMs: 200, maxMs: 1_000 } } },
  });
  return {
    identity,
    operator,
    lines: () => out.flatMap((l) => l.split('\n').filter((s) => s !== '')).map((l) => JSON.parse(l)),
  };
}

describe('Operator on the real control plane', () => {
  let cluster: ClientNodeCluster;
  let kubeConfig: Awaited<ReturnType<typeof kubeConfigFromFile>>;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    kubeConfig = await kubeConfigFromFile(inject('nodewrightCluster').kubeconfigPath);
    cluster = new ClientNodeCluster({
      kubeConfig,
      fieldManager: 'operator-it',
      logger: createLogger({ level: 'silent' }),
      clock,
      timers,
    });
    await cluster.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  });

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.operator.stop()));
    const bestEffort = (p: Promise<unknown>) => p.catch(() => undefined);
    await bestEffort(cluster.delete(NodePools, { name: POOL }));
    await bestEffort(cluster.delete(Namespaces, { name: NAMESPACE }));
    await bestEffort(cluster.delete(Leases, LEASE));
  });

  it('one replica leads, the other stands by; exactly one NodeClaim for a pending pod; the standby takes over when the leader stops', async () => {
    const a = replica(`a-${run}`, kubeConfig);
    const b = replica(`b-${run}`, kubeConfig);
    replicas.push(a, b);
    await Promise.all([a.operator.start(), b.operator.start()]);

    const leader = await eventually('a leader', 20_000, async () =>
      replicas.find((r) => r.operator.isLeading()),
    );
    const standby = leader === a ? b : a;
    // The standby keeps standing by across several renewals.
    await sleep(5_000);
    expect(leader.operator.isLeading()).toBe(true);
    expect(standby.operator.isLeading()).toBe(false);
    expect(standby.lines().find((l) => l.message === 'waiting for leadership')).toMatchObject({
      identity: standby.identity,
      holder: leader.identity,
    });
    expect(leader.lines().find((l) => l.message === 'became leader')).toMatchObject({
      identity: leader.identity,
    });
    const lease = await cluster.get(Leases, LEASE);
    expect(lease.spec?.holderIdentity).toBe(leader.identity);
    // The new leader is announced as a Kubernetes Event on the Lease.
    const announced = await eventually('the LeaderElection event', 10_000, async () => {
      const events = await cluster.list(Events, {
        namespace: LEASE.namespace,
        fieldSelector: `involvedObject.name=${LEASE.name},reason=LeaderElection`,
      });
      return events.items.length > 0 ? events.items : undefined;
    });
    expect(announced.map((e) => (e as { message?: string }).message)).toContain(
      `${leader.identity} became leader`,
    );

    // Health, readiness (caches synced on both replicas) and metrics.
    for (const r of replicas) {
      const { health, metrics } = r.operator.ports;
      expect(r.lines().find((l) => l.message === 'serving health')).toMatchObject({ port: health });
      expect(r.lines().find((l) => l.message === 'serving metrics')).toMatchObject({ port: metrics });
      expect((await fetch(`http://127.0.0.1:${health}/healthz`)).status).toBe(200);
      await eventually('readyz 200', 20_000, async () =>
        (await fetch(`http://127.0.0.1:${health}/readyz`)).status === 200 ? true : undefined,
      );
      const body = await (await fetch(`http://127.0.0.1:${metrics}/metrics`)).text();
      expect(body).toMatch(/^process_resident_memory_bytes \d+/m);
      expect(body).toContain('# TYPE karpenter_');
    }

    // A NodePool and a pod only it can serve: one NodeClaim across both replicas.
    await cluster.create(
      NodePools,
      aNodePool({
        metadata: { name: POOL },
        spec: { template: { metadata: { labels: { [POOL_LABEL]: POOL } } } },
      }),
    );
    await cluster.create(UntypedPods, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'pending', namespace: NAMESPACE },
      spec: {
        nodeSelector: { [POOL_LABEL]: POOL },
        containers: [
          { name: 'app', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '1' } } },
        ],
      },
    } as UntypedObject);
    const claimsOfPool = async () =>
      (await cluster.list(NodeClaims, { labelSelector: `karpenter.sh/nodepool=${POOL}` }))
        .items as NodeClaim[];
    await eventually('a NodeClaim', 45_000, async () =>
      (await claimsOfPool()).length > 0 ? true : undefined,
    );
    await eventually('the launch', 20_000, async () => (cloud.calls.create.length > 0 ? true : undefined));
    // Give a double launch time to show.
    await sleep(4_000);
    const claims = (await claimsOfPool()).map((c) => c.metadata.name);
    expect(claims).toHaveLength(1);
    expect(cloud.calls.create.map((c) => c.metadata.name)).toEqual(claims);

    // Graceful stop releases the Lease: the standby leads at its next retry, well within 15 s.
    const stoppedAt = Date.now();
    await leader.operator.stop();
    expect(await leader.operator.exited).toEqual({ code: 0, reason: 'stopped' });
    await eventually('the standby to lead', 15_000, async () =>
      standby.operator.isLeading() ? true : undefined,
    );
    const tookOverMs = Date.now() - stoppedAt;
    expect(tookOverMs).toBeLessThan(15_000);
    const after = await cluster.get(Leases, LEASE);
    expect(after.spec?.holderIdentity).toBe(standby.identity);
    expect(after.spec?.leaseTransitions).toBe(1);
    // The stopped leader's servers are closed.
    await expect(fetch(`http://127.0.0.1:${leader.operator.ports.health}/healthz`)).rejects.toThrow();
    // The new leader picks up the state the standby's informers kept: no second launch for
    // the pod already served by the in-flight claim.
    await sleep(4_000);
    expect((await claimsOfPool()).map((c) => c.metadata.name)).toEqual(claims);
    expect(cloud.calls.create).toHaveLength(1);

    // Clean up while a leader still runs, so the claim's finalizer is handled.
    await cluster.delete(Pods, { name: 'pending', namespace: NAMESPACE });
    for (const claim of await claimsOfPool())
      await cluster.delete(NodeClaims, { name: claim.metadata.name! });
    await cluster.delete(NodePools, { name: POOL });
    await eventually('the NodeClaims to go', 30_000, async () =>
      (await claimsOfPool()).length === 0 ? true : undefined,
    );
    await cluster.get(NodePools, { name: POOL }).then(
      () => expect.fail('the NodePool should be gone'),
      (err) => expect(isNotFound(err)).toBe(true),
    );
  });
});
