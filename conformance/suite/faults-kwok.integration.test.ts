import { join } from 'node:path';
import { generateCrd, nodeClaimKind, nodePoolKind } from '@nodewright/core/apis';
import {
  Deployments,
  Nodes,
  Pods,
  type ResourceType,
  resourceType,
  type UntypedObject,
} from '@nodewright/core/kube';
import { kubeReservedMilliCpu, kwokNodeClassKind } from '@nodewright/kwok';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  AppLabel,
  applyKwokPool,
  ControllerProcess,
  deploymentManifest,
  type E2EEnvironment,
  hasTaint,
  isLive,
  isRunningPod,
  kwokNodeClassManifest,
  ListHoldProxy,
  type LogEntry,
  type Observed,
  type Requirement,
  resolveCliBin,
  startE2EEnvironment,
} from './src/e2e/index.js';
import { waitUntil } from './src/wait-until.js';

// Fault tests of issue 14 on the real control plane with the built controller (KWOK provider,
// whose instances are Nodes kwok keeps Ready): a controller killed mid-command must strand no
// `karpenter.sh/disrupted` taint, and a controller whose Pod list is slow must decide nothing
// until its caches have synced, and a controller cut off from the API server for 60 s must come
// back (restarted, as its Deployment would restart it) without losing or doubling a NodeClaim. Each prints its figures as a JSON line (`fault measured`), which
// conformance/README.md's "Faults survived" table quotes. Needs `pnpm build` first.
const provided = inject('nodewrightCluster');

const CrdType = resourceType({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  namespaced: false,
});
const NodeClaimType = resourceType({ apiVersion: 'karpenter.sh/v1', kind: 'NodeClaim', namespaced: false });
const NodeClassType = resourceType({
  apiVersion: 'karpenter.kwok.sh/v1alpha1',
  kind: 'KWOKNodeClass',
  namespaced: false,
});
const Manager = { fieldManager: 'nodewright-faults', force: true } as const;
const NodePoolLabel = 'karpenter.sh/nodepool';
const InstanceTypeLabel = 'node.kubernetes.io/instance-type';
const DisruptedTaint = 'karpenter.sh/disrupted';
const C4 = 'c-4x-amd64-linux';
const OnDemand: Requirement = { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] };
const types = (...names: string[]): Requirement => ({
  key: InstanceTypeLabel,
  operator: 'In',
  values: names,
});

const binPath = resolveCliBin(process.cwd());
let env: E2EEnvironment;
const controllers: ControllerProcess[] = [];

const list = async (type: ResourceType, selector: string, namespace?: string) =>
  (await env.cluster.list<Observed>(type, { labelSelector: selector, ...(namespace ? { namespace } : {}) }))
    .items;
const nodesOf = (pool: string) => list(Nodes, `${NodePoolLabel}=${pool}`);
const claimsOf = (pool: string) => list(NodeClaimType, `${NodePoolLabel}=${pool}`);
const podsOf = (app: string) => list(Pods, `${AppLabel}=${app}`, env.namespace);
const wait = <T>(what: string, timeoutMs: number, probe: () => Promise<T>, done: (value: T) => boolean) =>
  waitUntil(probe, done, { what, timeoutMs, intervalMs: 500 });
const nameOf = (o: Observed): string => o.metadata.name ?? '';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startController(identity: string, leaseId: string, kubeconfigPath = env.kubeconfigPath) {
  const controller = ControllerProcess.start({
    binPath,
    provider: 'kwok',
    kubeconfigPath,
    identity,
    leaderElectionId: leaseId,
    logFile: join(env.workDir, `${identity}.log`),
    registry: env.processes,
  });
  controllers.push(controller);
  return controller;
}

/**
 * Keeps one controller running through `kubeconfigPath`, starting a new one 5 s after each exit,
 * as a Deployment's kubelet would (restartPolicy Always): a controller exits when it loses its
 * Lease, as Karpenter's does, so that it cannot act beside a new leader.
 */
function supervise(identity: string, leaseId: string, kubeconfigPath: string) {
  let stopped = false;
  let current = startController(`${identity}-0`, leaseId, kubeconfigPath);
  const exits: { at: number; code: number | null }[] = [];
  const watch = (c: ControllerProcess): void => {
    void c.exited.then(async (exit) => {
      exits.push({ at: Date.now(), code: exit.code });
      if (stopped) return;
      await sleep(5_000);
      if (stopped) return;
      current = startController(`${identity}-${exits.length}`, leaseId, kubeconfigPath);
      watch(current);
    });
  };
  watch(current);
  return {
    current: () => current,
    exits,
    async stop() {
      stopped = true;
      await current.stop();
    },
  };
}

const becameLeader = (c: ControllerProcess) =>
  c.waitForLog((e) => e.message === 'became leader' && e.identity === c.spec.identity, 'leadership', 90_000);

async function applyPool(name: string, nodeClass: string, requirements: Requirement[]) {
  await applyKwokPool(
    env.cluster,
    { name, nodeClass, requirements, consolidateAfter: '0s' },
    Manager.fieldManager,
  );
}

async function deploy(name: string, pool: string, replicas: number, cpu: string) {
  await env.cluster.create(
    Deployments,
    deploymentManifest({
      name,
      namespace: env.namespace,
      replicas,
      nodePool: pool,
      requests: { cpu, memory: '128Mi' },
    }),
  );
}

const scale = (name: string, replicas: number) =>
  env.cluster.patch(Deployments, { namespace: env.namespace, name }, { spec: { replicas } });

/** The figures a test prints, for conformance/README.md's "Faults survived" table. */
const report = (fault: string, figures: Record<string, unknown>) =>
  console.info(JSON.stringify({ message: 'fault measured', fault, ...figures }));

beforeAll(async () => {
  env = await startE2EEnvironment({
    name: 'faults',
    ...(provided.external ? { externalKubeconfig: provided.kubeconfigPath } : {}),
  });
  const crds = [nodePoolKind, nodeClaimKind, kwokNodeClassKind].map(
    (k) => generateCrd(k) as unknown as UntypedObject,
  );
  for (const crd of crds) await env.cluster.apply(CrdType, crd, Manager);
  for (const crd of crds)
    await wait(
      `CRD ${crd.metadata.name} Established`,
      30_000,
      () => env.cluster.get<Observed>(CrdType, { name: crd.metadata.name as string }),
      (c) =>
        (c.status?.conditions as { type: string; status: string }[] | undefined)?.some(
          (x) => x.type === 'Established' && x.status === 'True',
        ) ?? false,
    );
  const nodeClass = (name: string, spec: Record<string, unknown>) =>
    env.cluster.apply(NodeClassType, kwokNodeClassManifest(name, spec), Manager);
  await nodeClass('fast', {});
  // Replacements take 20 s to register: a window in which to kill the controller waiting on one.
  await nodeClass('slow', { nodeRegistrationDelay: '20s' });
}, 600_000);

afterAll(async () => {
  await Promise.all(controllers.map((c) => c.stop()));
  await env?.stop();
});

describe('faults survived (kwok, real kube-apiserver)', () => {
  it('decides nothing while the Pod list is held for 40 s at start; acts once synced', async () => {
    const pool = 'sync-gate';
    const allocatable = 4000 - kubeReservedMilliCpu(4);
    await applyPool(pool, 'fast', [types(C4), OnDemand]);
    // Busy nodes first, made by a controller that sees everything: 4 pods of 40 %, two per node.
    const seed = startController('sync-seed', 'faults-sync-seed');
    await becameLeader(seed);
    await deploy('busy', pool, 4, `${Math.floor(allocatable * 0.4)}m`);
    await wait(
      '4 busy pods Running',
      120_000,
      () => podsOf('busy'),
      (p) => p.length === 4 && p.every(isRunningPod),
    );
    await seed.stop();
    // Now consolidatable (one pod per node after the scale-down, room for both on one), and a
    // pod that needs a new node: a controller acting on half a cache would delete or launch.
    await scale('busy', 2);
    await wait(
      '2 busy pods',
      60_000,
      () => podsOf('busy'),
      (p) => p.length === 2 && p.every(isRunningPod),
    );
    await deploy('late', pool, 1, `${Math.floor(allocatable * 0.7)}m`);
    const claimsBefore = (await claimsOf(pool)).map(nameOf).sort();
    const nodesBefore = (await nodesOf(pool)).map(nameOf).sort();
    expect(nodesBefore.length).toBeGreaterThanOrEqual(2);

    const holdMs = 40_000;
    const startedAt = Date.now();
    const proxy = await ListHoldProxy.start(env.connection, {
      path: '/api/v1/pods',
      untilMs: startedAt + holdMs,
    });
    try {
      const kubeconfig = join(env.workDir, 'proxy.kubeconfig');
      await proxy.writeKubeconfig(kubeconfig);
      const gated = startController('sync-gated', 'faults-sync-gated', kubeconfig);
      await becameLeader(gated);
      const metric = async (): Promise<number | undefined> => {
        const body = (await gated.http('metrics', '/metrics')).body;
        const m = /^karpenter_cluster_state_synced (\S+)$/m.exec(body);
        return m ? Number(m[1]) : undefined;
      };
      const unsyncedTime = async (): Promise<number | undefined> => {
        const body = (await gated.http('metrics', '/metrics')).body;
        const m = /^karpenter_cluster_state_unsynced_time_seconds (\S+)$/m.exec(body);
        return m ? Number(m[1]) : undefined;
      };
      // While the list is held: sample the cluster and the gauge until the hold ends.
      const samples: { at: number; synced?: number; tainted: string[]; claims: string[]; nodes: string[] }[] =
        [];
      let maxUnsynced = 0;
      while (Date.now() < startedAt + holdMs - 1_000) {
        const [nodes, claims] = await Promise.all([nodesOf(pool), claimsOf(pool)]);
        const synced = await metric();
        maxUnsynced = Math.max(maxUnsynced, (await unsyncedTime()) ?? 0);
        samples.push({
          at: Date.now() - startedAt,
          ...(synced === undefined ? {} : { synced }),
          tainted: nodes.filter((n) => hasTaint(n, DisruptedTaint)).map(nameOf),
          claims: claims.filter(isLive).map(nameOf).sort(),
          nodes: nodes.filter(isLive).map(nameOf).sort(),
        });
        await sleep(500);
      }
      expect(proxy.held.length, 'the controller never listed Pods through the proxy').toBeGreaterThan(0);
      expect(samples.length).toBeGreaterThan(10);
      for (const s of samples) {
        expect(s.tainted, `at ${s.at} ms`).toEqual([]);
        expect(s.claims, `at ${s.at} ms`).toEqual(claimsBefore);
        expect(s.nodes, `at ${s.at} ms`).toEqual(nodesBefore);
      }
      const readings = samples.flatMap((s) => (s.synced === undefined ? [] : [s.synced]));
      expect(readings.length).toBeGreaterThan(0);
      expect(new Set(readings)).toEqual(new Set([0]));
      expect(
        gated
          .entries()
          .some((e) => e.message === 'pass skipped: cluster state not synced: pods informer listing'),
      ).toBe(true);
      // Released: the gauge turns 1 and the controller acts — the late pod gets a new node,
      // launched after the held list was answered.
      await wait('karpenter_cluster_state_synced 1', 30_000, metric, (v) => v === 1);
      const syncedAt = Date.now() - startedAt;
      await wait(
        'late pod Running',
        120_000,
        () => podsOf('late'),
        (p) => p.length === 1 && p.every(isRunningPod),
      );
      const firstLaunchAt = Math.min(
        ...(await claimsOf(pool))
          .filter((c) => !claimsBefore.includes(nameOf(c)))
          .map((c) => Date.parse(c.metadata.creationTimestamp as string)),
      );
      expect(firstLaunchAt).toBeGreaterThanOrEqual(
        Math.floor((proxy.held[0]?.releasedMs ?? 0) / 1000) * 1000,
      );
      report('pod LIST held 40 s at controller start', {
        'hold-ms': holdMs,
        'samples-during-hold': samples.length,
        'tainted-during-hold': 0,
        'claims-created-or-deleted-during-hold': 0,
        'max-unsynced-time-seconds': maxUnsynced,
        'start-to-synced-ms': syncedAt,
        'held-lists': proxy.held.length,
      });
      await gated.stop();
    } finally {
      await proxy.stop();
    }
  }, 300_000);

  // The two places a consolidation command can be when its leader dies: validating (tainted,
  // nothing launched, the 15 s validation delay running) and waiting on its replacement (launched,
  // its Node registering 20 s later on the slow NodeClass).
  const strandings = [
    {
      stage: 'is validating',
      pool: 'stranded-validating',
      app: 'shrink-validating',
      what: 'the original node tainted and no replacement launched yet',
      reached: (claims: number) => claims === 1,
    },
    {
      stage: 'waits on a replacement',
      pool: 'stranded',
      app: 'shrink',
      what: 'a replacement NodeClaim while the original node is tainted',
      reached: (claims: number) => claims >= 2,
    },
  ] as const;

  it.each(strandings)(
    'a leader SIGKILLed while its command $stage strands no disrupted taint',
    async (variant) => {
      const { pool, app } = variant;
      const leaseId = `faults-${pool}`;
      await applyPool(pool, 'slow', [types(C4), OnDemand]);
      const first = startController(`${pool}-a`, leaseId);
      await becameLeader(first);
      const standby = startController(`${pool}-b`, leaseId);
      try {
        await standby.waitForLog(
          (e) => e.message === 'waiting for leadership' && e.identity === `${pool}-b`,
          'standby',
          60_000,
        );
        await deploy(app, pool, 1, '500m');
        await wait(
          `${app} pod Running`,
          120_000,
          () => podsOf(app),
          (p) => p.length === 1 && p.every(isRunningPod),
        );
        const [original] = await nodesOf(pool);
        if (original === undefined) throw new Error(`no node for the ${app} pod`);
        // Smaller types allowed now: the c-4x node is replaced by a cheaper one (requirements are not
        // in the drift hash, so this is consolidation, not drift).
        await applyPool(pool, 'slow', [types(C4, 'c-2x-amd64-linux', 'c-1x-amd64-linux'), OnDemand]);
        const waiting = await wait(
          variant.what,
          120_000,
          async () => ({ claims: await claimsOf(pool), nodes: await nodesOf(pool) }),
          (s) =>
            variant.reached(s.claims.length) &&
            s.nodes.some((n) => n.metadata.name === original.metadata.name && hasTaint(n, DisruptedTaint)),
        );
        // No replacement Node yet (it registers 20 s after launch): the command is at its stage now.
        expect(waiting.nodes.length).toBe(1);
        await first.kill();
        const killedAt = Date.now();
        await becameLeader(standby);
        const leadAt = Date.now();
        // The new leader's live commands: nodes it decided to disrupt itself.
        const ownCandidates = () =>
          new Set(
            standby
              .entries()
              .filter((e: LogEntry) => e.message === 'disruption command decided; validating')
              .flatMap((e) => (e.candidates as string[] | undefined) ?? []),
          );
        const released = await standby.waitForLog(
          (e) =>
            e.message === 'removed a stranded karpenter.sh/disrupted taint' &&
            e.node === original.metadata.name,
          'the stranded taint released',
          30_000,
        );
        const releasedAt = Date.now();
        expect(released.why).toMatch(/no disruption command/);
        // Within 30 s of the takeover, only nodes of the new leader's own commands carry the taint.
        await sleep(Math.max(0, leadAt + 30_000 - Date.now()));
        const stray = (await nodesOf(pool)).filter(
          (n) => isLive(n) && hasTaint(n, DisruptedTaint) && !ownCandidates().has(nameOf(n)),
        );
        expect(stray.map(nameOf)).toEqual([]);
        // And the consolidation completes under the new leader: the pod runs on a smaller node.
        const done = await wait(
          'the c-4x node replaced and the pod Running on the smaller one',
          240_000,
          async () => ({ nodes: await nodesOf(pool), pods: await podsOf(app) }),
          (s) =>
            !s.nodes.some((n) => n.metadata.name === original.metadata.name) &&
            s.pods.length === 1 &&
            s.pods.every(isRunningPod) &&
            s.nodes.some(
              (n) =>
                n.metadata.name === s.pods[0]?.spec?.nodeName &&
                n.metadata.labels?.[InstanceTypeLabel] !== C4,
            ),
        );
        const doneAt = Date.now();
        expect(done.nodes.filter((n) => hasTaint(n, DisruptedTaint) && isLive(n))).toEqual([]);
        report(`leader SIGKILLed while its consolidation command ${variant.stage}`, {
          'kill-to-became-leader-ms': leadAt - killedAt,
          'became-leader-to-taint-released-ms': releasedAt - leadAt,
          'kill-to-consolidated-ms': doneAt - killedAt,
          'stray-tainted-nodes-30s-after-takeover': stray.length,
        });
      } finally {
        // The standby leads on after this test: left running, it would provision the next tests'
        // pools beside their own controllers and launch a second node for their pods.
        await Promise.all([first.stop(), standby.stop()]);
      }
    },
    480_000,
  );

  it('the API server unreachable for 60 s: the controller is restarted as its Deployment would be and provisions again, no NodeClaim lost or launched twice', async () => {
    const pool = 'outage';
    const allocatable = 4000 - kubeReservedMilliCpu(4);
    // One pod per node: nothing to consolidate, so every NodeClaim is a launch the test counts.
    const cpu = `${Math.floor(allocatable * 0.6)}m`;
    await applyPool(pool, 'fast', [types(C4), OnDemand]);
    const proxy = await ListHoldProxy.start(env.connection);
    const kubeconfig = join(env.workDir, 'outage.kubeconfig');
    await proxy.writeKubeconfig(kubeconfig);
    const supervisor = supervise('outage', 'faults-outage', kubeconfig);
    try {
      await becameLeader(supervisor.current());
      await deploy('before-outage', pool, 2, cpu);
      await wait(
        '2 pods Running before the outage',
        120_000,
        () => podsOf('before-outage'),
        (p) => p.length === 2 && p.every(isRunningPod),
      );
      const claimsBefore = (await claimsOf(pool)).filter(isLive).map(nameOf).sort();
      expect(claimsBefore).toHaveLength(2);

      const outageMs = 60_000;
      const cutAt = Date.now();
      proxy.outage(cutAt + outageMs);
      // Pods that need two more nodes arrive while the controller cannot see them.
      await deploy('during-outage', pool, 2, cpu);
      await sleep(Math.max(0, cutAt + outageMs - Date.now()));
      const healedAt = Date.now();
      const exitsDuringOutage = supervisor.exits.length;
      await wait(
        'the pods that arrived during the outage Running',
        240_000,
        () => podsOf('during-outage'),
        (p) => p.length === 2 && p.every(isRunningPod),
      );
      const recoveredAt = Date.now();
      // KWOK's Node exists as soon as the launch does, so pods can run on it before the
      // controller has written the NodeClaim's providerID: wait for every claim to carry one.
      const claims = await wait(
        'every NodeClaim of the pool launched (providerID set)',
        60_000,
        async () => (await claimsOf(pool)).filter(isLive),
        (cs) => cs.length >= 4 && cs.every((c) => String(c.status?.providerID ?? '') !== ''),
      );
      const nodes = (await nodesOf(pool)).filter(isLive);
      // No NodeClaim lost, and exactly one launch per node that was needed.
      expect(claims.map(nameOf)).toEqual(expect.arrayContaining(claimsBefore));
      expect(claims).toHaveLength(4);
      const ids = claims.map((c) => String(c.status?.providerID ?? '')).sort();
      expect(new Set(ids).size).toBe(4);
      expect(nodes.map((n) => String(n.spec?.providerID ?? '')).sort()).toEqual(ids);
      report('API server unreachable for 60 s (every connection cut, new ones reset)', {
        'outage-ms': outageMs,
        'controller-exits-during-outage': exitsDuringOutage,
        'outage-end-to-pending-pods-running-ms': recoveredAt - healedAt,
        'nodeclaims-lost': claimsBefore.filter((n) => !claims.some((c) => nameOf(c) === n)).length,
        'nodeclaims-after': claims.length,
        'duplicate-launches': claims.length - new Set(ids).size,
      });
    } finally {
      await supervisor.stop();
      await proxy.stop();
    }
  }, 480_000);
  it('a leader cut off from its Lease writes nothing after its renewDeadline and exits, while its other writes still reach the API server', async () => {
    const pool = 'partition';
    // The controller's default: a leader that has not renewed for this long must stop acting.
    const renewDeadlineMs = 10_000;
    const allocatable = 4000 - kubeReservedMilliCpu(4);
    await applyPool(pool, 'fast', [types(C4), OnDemand]);
    const proxy = await ListHoldProxy.start(env.connection);
    const kubeconfig = join(env.workDir, 'partition.kubeconfig');
    await proxy.writeKubeconfig(kubeconfig);
    const leader = startController('partition-a', 'faults-partition', kubeconfig);
    try {
      await becameLeader(leader);
      // The Lease's create (POST .../leases) and its renewals (PUT .../leases/NAME).
      const isLease = (r: { path: string }) => /\/leases(\/|$)/.test(r.path);
      const isWrite = (r: { method: string }) => r.method !== 'GET';
      const cutAt = Date.now();
      // Only the Lease is cut off: every other write would still reach the API server.
      proxy.partition(isLease, cutAt + 180_000);
      // Work that needs writes (NodeClaims, their launch, events) arrives as the Lease is cut.
      await deploy('partitioned', pool, 3, `${Math.floor(allocatable * 0.6)}m`);
      // More arrives just before the deadline, so a batch is being worked on as it passes.
      await sleep(Math.max(0, cutAt + renewDeadlineMs - 1_500 - Date.now()));
      await deploy('partitioned-late', pool, 2, `${Math.floor(allocatable * 0.6)}m`);
      const exit = await Promise.race([leader.exited, sleep(90_000).then(() => undefined)]);
      const lastRenewalAt = Math.max(
        ...proxy.requests.filter((r) => isLease(r) && isWrite(r) && !r.partitioned).map((r) => r.atMs),
      );
      const deadlineAt = lastRenewalAt + renewDeadlineMs;
      const writes = proxy.requests.filter((r) => isWrite(r) && !isLease(r) && r.atMs > cutAt);
      // A write issued just before the deadline may reach the proxy a moment later: 1 s of slack.
      const late = writes.filter((r) => r.atMs > deadlineAt + 1_000);
      const refused = leader.entries().filter((e) => JSON.stringify(e).includes('FencedWriteError')).length;
      expect(late.map((r) => `${r.method} ${r.path} at +${r.atMs - deadlineAt} ms`)).toEqual([]);
      // It did have work: it wrote before the deadline, or was refused after it, or both.
      expect(writes.length + refused).toBeGreaterThan(0);
      expect(exit?.code).toBe(1);
      report('leader partitioned from its Lease (other writes still reach the API server)', {
        'renew-deadline-ms': renewDeadlineMs,
        'last-renewal-to-cut-ms': cutAt - lastRenewalAt,
        'writes-after-cut-before-deadline': writes.length - late.length,
        'writes-after-deadline': late.length,
        'fenced-writes-logged': refused,
        'last-write-before-deadline-ms':
          writes.length === 0 ? null : Math.max(...writes.map((r) => r.atMs)) - deadlineAt,
        'controller-exit-code': exit?.code ?? null,
      });
    } finally {
      await leader.stop();
      await proxy.stop();
    }
  }, 240_000);
});
