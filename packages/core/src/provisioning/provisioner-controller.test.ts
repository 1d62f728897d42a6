import { describe, expect, it } from 'vitest';
import type { Pod } from '../apis/kubernetes/pod.js';
import { Labels } from '../apis/labels.js';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import type { NodePool } from '../apis/v1/nodepool.js';
import { parseTime } from '../kube/object.js';
import type { ClusterPort } from '../kube/port.js';
import { NodeClaims, NodePools, Nodes, Pods } from '../kube/resource-types.js';
import { MetricNames } from '../metrics/names.js';
import type { NodeClassReadinessCheck } from '../nodepool/readiness/node-class-readiness.js';
import {
  lifecycleControllers,
  type ProvisioningOptions,
  provisioningControllers,
} from '../operator/controllers.js';
import { solve } from '../scheduling/solver/solve.js';
import { DeadlineExceededReason } from '../scheduling/solver/types.js';
import { PodBinder } from '../simulation/kube/binder/pod-binder.js';
import { ClusterState } from '../state/cluster-state.js';
import { buildSolverInput } from '../state/snapshot.js';
import { ControllerEnv } from '../testing/controller-env.js';
import { fakeInstanceTypes } from '../testing/fake-instance-types.js';
import { lifecycleDependencies } from '../testing/lifecycle-env.js';
import { aNodeFor } from '../testing/node-builder.js';
import { aNodePool } from '../testing/nodepool-builder.js';
import { aPod } from '../testing/pod-builder.js';
import { ProvisioningEventReasons } from './events.js';
import { NoTypesWarningRepeatMs, type SolveFunction } from './provisioner.js';

interface SetupOptions extends ProvisioningOptions {
  readonly nodeClassReadiness?: NodeClassReadinessCheck;
  /** The port the provisioner talks through, made from the cluster's (default: the cluster's). */
  readonly port?: (cluster: ClusterPort) => ClusterPort;
}

/**
 * A cluster with kube-scheduler's binder (it marks pods Unschedulable, then binds them once
 * nodes register), the fake cloud, and the provisioning and lifecycle controllers together.
 */
async function setup(options: SetupOptions = {}) {
  const env = new ControllerEnv();
  env.cluster.use(new PodBinder({ events: false }));
  const state = new ClusterState({ clock: env.clock, registry: env.registry });
  const lifecycle = lifecycleDependencies(env);
  await env.start(
    ...provisioningControllers(
      {
        cluster: options.port?.(env.cluster) ?? env.cluster,
        cloudProvider: env.cloudProvider,
        clock: env.clock,
        events: env.events,
        registry: env.registry,
        lifecycleMetrics: lifecycle.metrics,
        state,
      },
      options,
    ),
    ...lifecycleControllers(
      lifecycle,
      options.nodeClassReadiness === undefined ? {} : { nodeClassReadiness: options.nodeClassReadiness },
    ),
  );
  return { env, state, t0: env.clock.now() };
}

type Env = Awaited<ReturnType<typeof setup>>['env'];

function pod(name: string, cpu = '1', extra: Partial<Pod['spec']> = {}): Pod {
  return aPod({
    metadata: { name },
    spec: {
      containers: [{ name: 'app', image: 'app', resources: { requests: { cpu, memory: '1Gi' } } }],
      ...extra,
    },
  });
}

async function claims(env: Env): Promise<NodeClaim[]> {
  const list = await env.cluster.list(NodeClaims);
  return list.items.sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
}

async function pods(env: Env): Promise<Pod[]> {
  return (await env.cluster.list(Pods)).items;
}

/** Registers a Node for every launched claim without one, as kubelet would. */
async function registerNodes(env: Env): Promise<void> {
  for (const claim of await claims(env)) {
    if (claim.status?.providerID === undefined) continue;
    if ((await env.find(Nodes, claim.metadata.name ?? '')) !== undefined) continue;
    await env.create(Nodes, aNodeFor(claim));
  }
}

/** How many solves the provisioner ran (the scheduling duration histogram's count). */
async function solves(env: Env): Promise<number> {
  const metric = env.registry.getSingleMetric(MetricNames.SchedulerSchedulingDuration);
  const values = (await metric?.get())?.values ?? [];
  return values.find((v) => (v as { metricName?: string }).metricName?.endsWith('_count'))?.value ?? 0;
}

const types = (c: NodeClaim) =>
  [...(c.spec.requirements.find((r) => r.key === Labels.InstanceType)?.values ?? [])].sort();

describe('provisioning.provisioner', () => {
  it('counts the pass’s Pending pods by the zone each is confined to, and drops zones no pod waits for', async () => {
    const { env } = await setup();
    await env.cluster.create(NodePools, aNodePool());
    const inZone = (zone: string) => ({ nodeSelector: { [Labels.Zone]: zone } });
    await env.cluster.create(Pods, pod('a-1', '1', inZone('test-zone-a')));
    await env.cluster.create(Pods, pod('a-2', '1', inZone('test-zone-a')));
    await env.cluster.create(Pods, pod('b-1', '1', inZone('test-zone-b')));
    await env.cluster.create(Pods, pod('anywhere'));
    await env.settle();
    await env.advance(1_000);
    const byZone = async () =>
      Object.fromEntries(
        (
          (await env.registry.getSingleMetric(MetricNames.SchedulerPendingPodsByEffectiveZone)?.get())
            ?.values ?? []
        ).map((v) => [v.labels.zone, v.value]),
      );
    expect(await byZone()).toEqual({ 'test-zone-a': 2, 'test-zone-b': 1, flexible: 1 });

    await registerNodes(env);
    await env.advance(60_000);
    expect((await pods(env)).every((p) => (p.spec.nodeName ?? '') !== '')).toBe(true);
    await env.cluster.create(Pods, pod('late', '1', inZone('test-zone-c')));
    await env.settle();
    await env.advance(1_000);
    expect(await byZone()).toEqual({ 'test-zone-c': 1 });
    await env.stop();
  });

  it('a burst of 50 pods launches the solver’s NodeClaims once, and nothing more after the pods bind', async () => {
    const { env, state, t0 } = await setup();
    await env.cluster.create(NodePools, aNodePool());
    for (let i = 0; i < 50; i++) await env.cluster.create(Pods, pod(`web-${String(i).padStart(2, '0')}`));
    await env.settle();
    // kube-scheduler found no node; the batch is open and waits for 1 s without new pods.
    expect((await pods(env)).every((p) => p.status?.conditions?.[0]?.reason === 'Unschedulable')).toBe(true);
    expect(await claims(env)).toEqual([]);
    // What the pure decision says for this cluster, computed independently of the controller.
    const expected = solve(
      buildSolverInput(state.objects(), new Map([['default', fakeInstanceTypes()]]), {
        requireUnschedulable: true,
        requireReady: true,
      }).input,
    );
    expect(expected.newClaims.reduce((n, c) => n + c.pods.length, 0)).toBe(50);

    await env.advance(1_000);
    const first = await claims(env);
    expect(first).toHaveLength(expected.newClaims.length);
    expect(first.map(types).sort()).toEqual(
      expected.newClaims.map((c) => c.instanceTypes.map((t) => t.name).sort()).sort(),
    );
    expect(first.every((c) => parseTime(c.metadata.creationTimestamp ?? '') === t0 + 1_000)).toBe(true);
    expect(first.every((c) => c.status?.providerID !== undefined)).toBe(true);
    expect(
      await env.metric(MetricNames.NodeClaimsCreated, { reason: 'provisioning', nodepool: 'default' }),
    ).toBe(first.length);
    const nominated = env.events.withReason(ProvisioningEventReasons.Nominated);
    expect(new Set(nominated.map((e) => e.object.metadata.name)).size).toBe(50);
    expect(nominated[0]?.message).toMatch(/^Pod should schedule on: nodeclaim\/default-/);
    expect(await solves(env)).toBe(1);
    // A nominated pod that changes is not placed again.
    await env.cluster.patch(
      Pods,
      { name: 'web-00', namespace: 'default' },
      { metadata: { labels: { v: '2' } } },
    );
    await env.advance(5_000);
    expect(await solves(env)).toBe(1);

    // Several batch windows and the end of the 20 s nominations pass before any node registers:
    // the pods are counted on the in-flight claims, never launched for again.
    await env.advance(45_000);
    expect((await claims(env)).map((c) => c.metadata.name)).toEqual(first.map((c) => c.metadata.name));
    expect(state.nominationOf(state.pod('default', 'web-00')!)).toBeDefined();

    await registerNodes(env);
    await env.advance(60_000);
    expect((await pods(env)).every((p) => (p.spec.nodeName ?? '') !== '')).toBe(true);
    await env.advance(5 * 60_000);
    expect((await claims(env)).map((c) => c.metadata.name)).toEqual(first.map((c) => c.metadata.name));
    expect(env.cloudProvider.instances()).toHaveLength(first.length);
    expect(await env.metric(MetricNames.SchedulerQueueDepth)).toBe(0);
    expect(await env.metric(MetricNames.SchedulerUnschedulablePods)).toBe(0);
    expect(await env.metric(MetricNames.ClusterStateNodeCount)).toBe(first.length);
    await env.stop();
  });

  it('a pod crowded off the node it was nominated to is placed again at its next event, not after the 20 s nomination', async () => {
    const { env, state, t0 } = await setup();
    await env.cluster.create(NodePools, aNodePool());
    await env.cluster.create(Pods, pod('late', '3'));
    await env.advance(1_000);
    const [claim] = await claims(env);
    expect(state.nominationOf(state.pod('default', 'late')!)?.nodeClaim).toBe(claim?.metadata.name);
    // Before kube-scheduler gets to 'late', another pod takes the whole node (as one nominated
    // elsewhere would, bound where kube-scheduler found room first).
    const cpu = claim!.status!.allocatable!.cpu!;
    await env.cluster.create(Pods, pod('first-come', cpu, { nodeName: claim!.metadata.name! }));
    await registerNodes(env);
    await env.advance(1_000);
    expect(state.isNominatedToInitializedNode(state.pod('default', 'late')!)).toBe(true);
    expect(await claims(env)).toHaveLength(1);
    // kube-scheduler's next attempt fails and says so on the pod.
    await env.cluster.patchStatus(
      Pods,
      { name: 'late', namespace: 'default' },
      {
        status: {
          conditions: [
            {
              type: 'PodScheduled',
              status: 'False',
              reason: 'Unschedulable',
              message: '0/1 nodes are available: 1 Insufficient cpu.',
            },
          ],
        },
      },
    );
    await env.advance(1_000);
    const after = await claims(env);
    expect(after).toHaveLength(2);
    const second = after.find((c) => c.metadata.name !== claim?.metadata.name)!;
    // 4 s after the first decision, well inside the 20 s the nomination would have held it.
    expect(parseTime(second.metadata.creationTimestamp ?? '') - t0).toBeLessThan(5_000);
    expect(state.nominationOf(state.pod('default', 'late')!)?.nodeClaim).toBe(second.metadata.name);
    await env.stop();
  });

  it('while the cloud is slow to launch, later batches count the pods on the claims already made', async () => {
    const { env, state } = await setup();
    env.cloudProvider.failWhen('create', () => new Error('the cloud is slow today'));
    await env.cluster.create(NodePools, aNodePool());
    for (let i = 0; i < 20; i++) await env.cluster.create(Pods, pod(`web-${i}`, '3'));
    await env.advance(1_000);
    const first = (await claims(env)).map((c) => c.metadata.name);
    expect(first.length).toBeGreaterThan(1);
    expect((await claims(env)).every((c) => c.status?.providerID === undefined)).toBe(true);
    // Nominations end after 20 s; the next batches find the pods still pending and the claims
    // still unlaunched, and place the pods on those claims again.
    await env.advance(60_000);
    expect((await claims(env)).map((c) => c.metadata.name)).toEqual(first);
    expect(state.nominationOf(state.pod('default', 'web-0')!)?.nodeClaim).toMatch(/^default-/);
    env.cloudProvider.clearFailures();
    await env.advance(60_000);
    expect((await claims(env)).every((c) => c.status?.providerID !== undefined)).toBe(true);
    expect((await claims(env)).map((c) => c.metadata.name)).toEqual(first);
    await env.stop();
  });

  it('pods arriving 0.5 s apart extend the batch until its 10 s maximum', async () => {
    const { env, t0 } = await setup();
    await env.cluster.create(NodePools, aNodePool());
    await env.settle();
    // 12 CPU: one pod per 16-CPU node, so the number of claims tells how many pods were decided.
    const seen = new Map<number, number>();
    for (let i = 0; i < 24; i++) {
      await env.cluster.create(Pods, pod(`job-${String(i).padStart(2, '0')}`, '12'));
      await env.advance(500);
      seen.set(env.clock.now() - t0, (await claims(env)).length);
    }
    // Pods at 0..9.5 s go in the first batch, closed at its maximum (10 s) although pods kept
    // coming every 0.5 s.
    expect(seen.get(9_500)).toBe(0);
    expect(seen.get(10_000)).toBe(20);
    // The pods from 10 s to 11.5 s open a second batch, which closes 1 s after its last pod.
    expect(seen.get(12_000)).toBe(20);
    await env.advance(499);
    expect(await claims(env)).toHaveLength(20);
    await env.advance(1);
    expect(await claims(env)).toHaveLength(24);
    await env.stop();
  });

  it('respects NodePool limits: the solve stops at them, pods beyond get the reason', async () => {
    const { env } = await setup();
    await env.cluster.create(NodePools, aNodePool({ spec: { limits: { cpu: '20' } } }));
    for (let i = 0; i < 30; i++) await env.cluster.create(Pods, pod(`web-${i}`));
    await env.advance(1_000);
    const created = await claims(env);
    const capacity = created.reduce((sum, c) => sum + Number(c.status?.capacity?.cpu ?? 0), 0);
    expect(created.length).toBeGreaterThan(0);
    expect(capacity).toBeLessThanOrEqual(20);
    const failed = env.events.withReason(ProvisioningEventReasons.FailedScheduling);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed[0]?.message).toMatch(/^Failed to schedule pod, .*limit/);
    // The pods the last pass left over, as Karpenter's gauge counts them.
    expect(await env.metric(MetricNames.SchedulerUnschedulablePods)).toBeGreaterThan(0);
    expect(await env.metric(MetricNames.SchedulerUnschedulablePods)).toBeLessThan(30);
    await env.stop();
  });

  it('gives each solve 60 s by default: pods it did not get to wait for the next batch', async () => {
    // The provisioner's clock moves 20 s at every reading: the solve's start reads 20 s, its
    // checks before each pod 40 s and 60 s (both placed), then 80 s: 60 s spent, big-2 waits.
    // Slices that never end read no clock, so every reading is the deadline's.
    let reads = 0;
    const { env } = await setup({
      provisioner: { elapsed: () => reads++ * 20, sliceMs: Number.POSITIVE_INFINITY },
    });
    await env.cluster.create(NodePools, aNodePool());
    for (let i = 0; i < 3; i++) await env.cluster.create(Pods, pod(`big-${i}`, '12'));
    await env.advance(1_000);
    expect(await claims(env)).toHaveLength(2);
    const waiting = env.events.withReason(ProvisioningEventReasons.FailedScheduling);
    expect(waiting.map((e) => [e.object.metadata.name, e.message])).toEqual([
      ['big-2', `Failed to schedule pod, ${DeadlineExceededReason}`],
    ]);
    await env.advance(11_000);
    expect(await claims(env)).toHaveLength(3);
    await env.stop();
  });

  it('gives the event loop a turn between slices of a solve, and still launches what it placed', async () => {
    // The clock moves 1 ms at every reading and slices are 2 ms: the solve of 20 pods is due for
    // a turn every other reading, far inside its 60 s budget.
    let now = 0;
    let turns = 0;
    const { env } = await setup({
      provisioner: {
        elapsed: () => {
          now += 1;
          return now / 1000;
        },
        sliceMs: 2,
        defer: async () => {
          turns++;
        },
      },
    });
    await env.cluster.create(NodePools, aNodePool());
    for (let i = 0; i < 20; i++) await env.cluster.create(Pods, pod(`p-${i}`, '1'));
    await env.advance(1_000);
    expect(turns).toBeGreaterThan(10);
    expect((await claims(env)).length).toBeGreaterThan(0);
    expect(env.events.withReason(ProvisioningEventReasons.FailedScheduling)).toEqual([]);
    await env.stop();
  });

  it('creates the NodeClaims of one pass in parallel, and nominates each pod to its own', async () => {
    // Each NodeClaim create takes a few event-loop turns, as an apiserver round trip does.
    let inFlight = 0;
    let most = 0;
    const slowCreates = (cluster: ClusterPort): ClusterPort =>
      new Proxy(cluster, {
        get(target, prop, receiver) {
          if (prop !== 'create') {
            const value = Reflect.get(target, prop, receiver);
            return typeof value === 'function' ? value.bind(target) : value;
          }
          return async (...args: Parameters<ClusterPort['create']>) => {
            if (args[0] !== NodeClaims) return target.create(...args);
            inFlight++;
            most = Math.max(most, inFlight);
            for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
            inFlight--;
            return target.create(...args);
          };
        },
      });
    const { env, state } = await setup({ port: slowCreates });
    await env.cluster.create(NodePools, aNodePool());
    // 12 cpu each: one node per pod.
    for (let i = 0; i < 5; i++) await env.cluster.create(Pods, pod(`big-${i}`, '12'));
    await env.advance(1_000);
    const made = await claims(env);
    expect(made).toHaveLength(5);
    expect(most).toBe(5);
    const nominated = new Set((await pods(env)).map((p) => JSON.stringify(state.nominationOf(p))));
    expect(nominated.size).toBe(5);
    for (const claim of made)
      expect(nominated.has(JSON.stringify({ nodeClaim: claim.metadata.name }))).toBe(true);
    await env.stop();
  });

  it('re-checks limits at create time: a stale solve cannot exceed them', async () => {
    // A solve that does not see the limits, as if they were lowered after the snapshot.
    const stale: SolveFunction = (input) =>
      solve({
        ...input,
        nodePools: input.nodePools.map((p) => ({ ...p, spec: { ...p.spec, limits: undefined } })),
      });
    const { env } = await setup({ provisioner: { solve: stale } });
    await env.cluster.create(NodePools, aNodePool({ spec: { limits: { cpu: '32', nodes: '2' } } }));
    for (let i = 0; i < 4; i++) await env.cluster.create(Pods, pod(`big-${i}`, '12'));
    await env.advance(1_000);
    expect(await claims(env)).toHaveLength(2);
    const refused = env.events.withReason(ProvisioningEventReasons.FailedScheduling);
    expect(refused.map((e) => e.message)).toEqual([
      'Failed to schedule pod, NodePool default would exceed its limits (cpu: limit 32, in use 32, this NodeClaim up to 16; nodes: limit 2, in use 2, this NodeClaim up to 1)',
      'Failed to schedule pod, NodePool default would exceed its limits (cpu: limit 32, in use 32, this NodeClaim up to 16; nodes: limit 2, in use 2, this NodeClaim up to 1)',
    ]);
    await env.stop();
  });

  it('records each pod it considers, decides about and places, and observes the time to decide once', async () => {
    const { env, state } = await setup();
    await env.cluster.create(NodePools, aNodePool());
    await env.cluster.create(Pods, pod('web'));
    await env.cluster.create(Pods, pod('huge', '64'));
    await env.advance(1_000);
    const web = state.schedulingTimes.of('default/web');
    const huge = state.schedulingTimes.of('default/huge');
    expect(web?.scheduledMs).toBeDefined();
    expect(web?.decidedMs).toBe(web?.scheduledMs);
    // Unschedulable: decided, not placed.
    expect(huge?.decidedMs).toBeDefined();
    expect(huge?.scheduledMs).toBeUndefined();
    const decisions = async () =>
      (
        (await env.registry.getSingleMetric(MetricNames.PodsSchedulingDecisionDuration)?.get())?.values ?? []
      ).find(
        (v) =>
          (v as { metricName?: string }).metricName === `${MetricNames.PodsSchedulingDecisionDuration}_count`,
      )?.value;
    expect(await decisions()).toBe(2);
    // The unschedulable pod's later passes are not first decisions.
    await env.advance(60_000);
    expect(await decisions()).toBe(2);
    await env.stop();
  });

  it('uses the NodePool of highest weight first', async () => {
    const { env } = await setup();
    await env.cluster.create(NodePools, aNodePool({ metadata: { name: 'cheap' }, spec: { weight: 1 } }));
    await env.cluster.create(
      NodePools,
      aNodePool({
        metadata: { name: 'preferred' },
        spec: {
          weight: 50,
          template: {
            spec: {
              requirements: [{ key: Labels.InstanceType, operator: 'In', values: ['fake-xlarge'] }],
            },
          },
        },
      }),
    );
    for (let i = 0; i < 3; i++) await env.cluster.create(Pods, pod(`web-${i}`));
    await env.advance(1_000);
    const created = await claims(env);
    expect(created.map((c) => c.metadata.labels?.[Labels.NodePool])).toEqual(['preferred']);
    expect(types(created[0]!)).toEqual(['fake-xlarge']);
    await env.stop();
  });

  /**
   * A preferred NodePool (weight 100) that cannot be used and a plain `fallback` one; one pending
   * pod. Checks the pod's claim came from `fallback`.
   */
  async function unusablePreferredPool(env: ControllerEnv, preferred: NodePool): Promise<void> {
    await env.cluster.create(NodePools, { ...preferred, spec: { ...preferred.spec, weight: 100 } });
    await env.cluster.create(NodePools, aNodePool({ metadata: { name: 'fallback' } }));
    await env.cluster.create(Pods, pod('web'));
    await env.advance(1_000);
    expect((await claims(env)).map((c) => c.metadata.labels?.[Labels.NodePool])).toEqual(['fallback']);
  }

  it('skips a NodePool that is not Ready, with an event saying why', async () => {
    const { env } = await setup({
      nodeClassReadiness: async (pool) =>
        pool.metadata.name === 'broken'
          ? { status: 'False', reason: 'NodeClassNotFound', message: 'TestNodeClass missing not found' }
          : { status: 'True', reason: 'Ready', message: '' },
    });
    await unusablePreferredPool(env, aNodePool({ metadata: { name: 'broken' } }));
    const skipped = env.events.withReason(ProvisioningEventReasons.NodePoolSkipped);
    expect(skipped.map((e) => [e.object.metadata.name, e.message])).toEqual([
      [
        'broken',
        'NodePool broken is not used to launch nodes for pending pods: it is not Ready (UnhealthyDependents): NodeClassReady=False (NodeClassNotFound: TestNodeClass missing not found)',
      ],
    ]);
    await env.stop();
  });

  it('warns NoCompatibleInstanceTypes on a NodePool whose requirements leave no instance type, and uses the others', async () => {
    const { env } = await setup();
    await unusablePreferredPool(
      env,
      aNodePool({
        metadata: { name: 'impossible' },
        spec: {
          template: {
            spec: { requirements: [{ key: Labels.InstanceType, operator: 'In', values: ['no-such-type'] }] },
          },
        },
      }),
    );
    const warned = () => env.events.withReason(ProvisioningEventReasons.NoCompatibleInstanceTypes);
    expect(warned().map((e) => [e.object.metadata.name, e.type, e.message])).toEqual([
      ['impossible', 'Warning', 'NodePool requirements filtered out all compatible available instance types'],
    ]);
    // Later passes (a new pending pod each) do not repeat it until the repeat interval passes.
    await env.cluster.create(Pods, pod('web-2'));
    await env.advance(1_000);
    expect(warned()).toHaveLength(1);
    await env.advance(NoTypesWarningRepeatMs);
    await env.cluster.create(Pods, pod('web-3'));
    await env.advance(1_000);
    expect(warned()).toHaveLength(2);
    await env.stop();
  });

  it('an unschedulable pod gets the solver’s complete reason, again while it keeps waiting', async () => {
    const { env, state } = await setup();
    await env.cluster.create(NodePools, aNodePool());
    await env.cluster.create(Pods, pod('huge', '64'));
    await env.settle();
    const reason = solve(
      buildSolverInput(state.objects(), new Map([['default', fakeInstanceTypes()]]), {
        requireUnschedulable: true,
        requireReady: true,
      }).input,
    ).unschedulable[0]?.reason;
    expect(reason).toMatch(/default/);
    await env.advance(1_000);
    const events = () => env.events.withReason(ProvisioningEventReasons.FailedScheduling);
    expect(events().map((e) => [e.object.metadata.name, e.type, e.message])).toEqual([
      ['huge', 'Warning', `Failed to schedule pod, ${reason}`],
    ]);
    expect(await claims(env)).toEqual([]);
    // Still provisionable: a new batch opens after 10 s and closes 1 s later.
    await env.advance(10_999);
    expect(events()).toHaveLength(1);
    await env.advance(1);
    expect(events()).toHaveLength(2);
    await env.stop();
  });

  it('reports an invalid pod once and keeps provisioning the others', async () => {
    const { env } = await setup();
    await env.cluster.create(NodePools, aNodePool());
    const bad = pod('bad');
    await env.cluster.create(Pods, {
      ...bad,
      spec: {
        ...bad.spec,
        containers: [{ name: 'app', image: 'app', resources: { requests: { cpu: 'lots' } } }],
      },
    } as unknown as Pod);
    await env.cluster.create(Pods, pod('good'));
    await env.advance(1_000);
    await env.advance(30_000);
    const invalid = env.events.withReason(ProvisioningEventReasons.InvalidPod);
    expect(invalid.map((e) => e.object.metadata.name)).toEqual(['bad']);
    expect(invalid[0]?.message).toMatch(/^Ignoring pod: it is not a valid Pod \(.*cpu/);
    expect(await claims(env)).toHaveLength(1);
    const ignored = async () =>
      (await env.registry.getSingleMetric(MetricNames.SchedulerIgnoredPods)?.get())?.values[0]?.value;
    expect(await ignored()).toBe(1);
    await env.cluster.delete(Pods, { name: 'bad', namespace: 'default' });
    await env.cluster.create(Pods, pod('another'));
    await env.advance(30_000);
    expect(await ignored()).toBe(0);
    await env.stop();
  });

  it('does not launch for pods that fit existing nodes, nor for pods kube-scheduler has not tried', async () => {
    const { env } = await setup();
    await env.cluster.create(NodePools, aNodePool());
    await env.cluster.create(Pods, pod('first'));
    await env.advance(1_000);
    await registerNodes(env);
    await env.advance(60_000);
    expect(await claims(env)).toHaveLength(1);
    // The first node has room: kube-scheduler binds the next pod there, no batch opens.
    await env.cluster.create(Pods, pod('second'));
    await env.advance(30_000);
    expect(await claims(env)).toHaveLength(1);
    expect((await pods(env)).every((p) => (p.spec.nodeName ?? '') !== '')).toBe(true);
    await env.stop();
  });
});
