import type { Logger } from 'pino';
import type { Pod } from '../apis/kubernetes/pod.js';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import type { NodePool } from '../apis/v1/nodepool.js';
import { MaxRequirementValues } from '../apis/v1/requirement.js';
import type { Clock } from '../clock/clock.js';
import { DefaultSliceMs, type Defer, deferToEventLoop, type Slices, timeSlices } from '../clock/slices.js';
import type { CloudProvider } from '../cloudprovider/cloud-provider.js';
import type { InstanceType } from '../cloudprovider/instance-type.js';
import { eachBounded } from '../concurrency/each-bounded.js';
import { isNotFound } from '../kube/errors.js';
import type { ClusterPort } from '../kube/port.js';
import { NodeClaims, NodePools } from '../kube/resource-types.js';
import { type LifecycleMetrics, recordNodeClaimCreated } from '../lifecycle/metrics.js';
import { TokenBucket } from '../operator/runtime/event-dedupe.js';
import type { EventRecorder, PublishedEvent } from '../operator/runtime/event-recorder.js';
import { objectRef } from '../operator/runtime/logger.js';
import { Quantity } from '../scheduling/quantity/quantity.js';
import { addResources, maxResources, type ResourceList } from '../scheduling/resources/resource-list.js';
import { solve, solveInSlices } from '../scheduling/solver/solve.js';
import { SolverCache } from '../scheduling/solver/solver-cache.js';
import {
  DeadlineExceededReason,
  type ExistingCapacity,
  type NewClaim,
  type SolverInput,
  type SolverOptions,
  type SolverResult,
} from '../scheduling/solver/types.js';
import { clusterCapacity, largestCapacity } from '../state/capacity.js';
import type { ClusterState } from '../state/cluster-state.js';
import { whyNodePoolUnusable } from '../state/nodepool-usability.js';
import { podId } from '../state/pod-role.js';
import type { CapacityRef } from '../state/snapshot.js';
import { limitsExceededAtCreate } from './create-limits.js';
import {
  failedSchedulingEvent,
  invalidPodEvent,
  noCompatibleInstanceTypesEvent,
  nodePoolSkippedEvent,
  nominatedEvent,
  notReadyDetail,
} from './events.js';
import type { ProvisioningMetrics } from './metrics.js';
import { newNodeClaim } from './new-nodeclaim.js';
import { pendingPodsByZone } from './pending-zones.js';
import type { UnfinishedSolve } from './unfinished-work.js';
import { unschedulableReasons } from './unschedulable-reasons.js';

/** How often NoCompatibleInstanceTypes repeats for a NodePool that stays without types. */
export const NoTypesWarningRepeatMs = 5 * 60_000;

/** The time budget the provisioner gives one solve. */
export interface SolveBudget {
  /** Karpenter's 1 min by default (`solveTimeoutMs`). */
  readonly timeoutMs: number;
  /** The provisioner's monotonic clock, in milliseconds, to measure the budget with. */
  readonly elapsedMs: () => number;
  /** When to give the event loop a turn during the solve (see `ProvisionerOptions.sliceMs`). */
  readonly slices: Slices;
}

/**
 * One solve. It should keep to `budget`, returning what it placed so far when it runs out; the
 * provisioner still logs a solve that overran it.
 */
export type SolveFunction = (input: SolverInput, budget: SolveBudget) => SolverResult | Promise<SolverResult>;

/**
 * The default SolveFunction: the solver with the budget as its deadline (pods it did not get to
 * are unschedulable with `DeadlineExceededReason` and go to the next batch), yielding to the
 * event loop between the budget's slices.
 */
export const solveWithinBudget: SolveFunction = (input, budget) =>
  solveInSlices(input, budget.slices, { budgetMs: budget.timeoutMs, elapsedMs: budget.elapsedMs });

/** A SolveFunction that ignores the budget and runs to completion. */
export const solveToCompletion: SolveFunction = (input) => solve(input);

/** What the provisioner is built from. */
export interface ProvisionerDependencies {
  readonly cluster: ClusterPort;
  readonly cloudProvider: CloudProvider;
  readonly state: ClusterState;
  readonly clock: Clock;
  readonly events: EventRecorder;
  /** `karpenter_nodeclaims_created_total` (reason `provisioning`). */
  readonly lifecycleMetrics: LifecycleMetrics;
  readonly metrics: ProvisioningMetrics;
}

/** Knobs of the provisioner; each has Karpenter's default. */
export interface ProvisionerOptions {
  /** Passed to every solve. `maxInstanceTypes` is capped at the CRD's 1000 values (default 600). */
  readonly solverOptions?: SolverOptions;
  /** The solve's time budget; default 60 s. */
  readonly solveTimeoutMs?: number;
  /** Default `solveWithinBudget`. */
  readonly solve?: SolveFunction;
  /** Monotonic seconds for the solve's duration; default `performance.now() / 1000`. */
  readonly elapsed?: () => number;
  /**
   * Longest stretch (on `elapsed`) a solve runs without giving the event loop a turn, so Lease
   * renewals and probes are answered during a long solve; default 20 ms. `Infinity` never
   * yields (the simulator: its passes must not interleave with other controllers' work).
   */
  readonly sliceMs?: number;
  /** How a solve gives the event loop a turn; default `setImmediate`. */
  readonly defer?: Defer;
  /** The `controller` label of the scheduler metrics; default `provisioner`. */
  readonly metricsController?: string;
  /** NodeClaim creates (and NodePool reads) of one pass in flight at once; default 100. */
  readonly createParallelism?: number;
}

/** How creating one solver claim's NodeClaim ended. */
type CreateOutcome =
  | { readonly ok: true; readonly name: string }
  | { readonly ok: false; readonly reason: string };

/** What one provisioning pass did. */
export interface ProvisioningOutcome {
  /** Pending pods the solve looked at. */
  readonly pods: number;
  /** Pods nominated to existing or in-flight capacity, or to a NodeClaim created now. */
  readonly nominated: number;
  /** Names of the NodeClaims created. */
  readonly nodeClaims: readonly string[];
  /** Pods left without a place (solver's reason, or their NodeClaim could not be created). */
  readonly unschedulable: number;
  /** NodePools left out (not Ready, deleting, invalid, no instance types), by name. */
  readonly skippedNodePools: readonly string[];
}

const DefaultSolveTimeoutMs = 60_000;
const DefaultMaxInstanceTypes = 600;
const DefaultCreateParallelism = 100;
const NominationsPerSecond = 5;
const NominationBurst = 10;

/**
 * One provisioning decision over the cluster state: pending pods (marked Unschedulable by
 * kube-scheduler, not nominated) -> solve against existing and in-flight capacity and the Ready
 * NodePools -> NodeClaims created (limits re-checked at create time) and pods nominated, with
 * an event on every pod saying where it goes or why it cannot go anywhere.
 */
export class Provisioner {
  readonly #deps: ProvisionerDependencies;
  readonly #solverOptions: SolverOptions;
  readonly #timeoutMs: number;
  readonly #solve: SolveFunction;
  readonly #elapsed: () => number;
  readonly #sliceMs: number;
  readonly #defer: Defer;
  readonly #controller: string;
  readonly #createParallelism: number;
  /** Shared by every Nominated event, as Karpenter's PodNominationRateLimiter. */
  readonly #nominations: TokenBucket;
  /** Invalid pods already reported, by key, with the resourceVersion reported. */
  readonly #reported = new Map<string, string>();
  /** Per NodePool left without types: its generation and when its warning was last published. */
  readonly #noTypesWarned = new Map<string, { readonly generation: number; readonly at: number }>();
  /** Zones the pending-pods-by-zone gauge has a series for, so the next pass can drop those gone. */
  #pendingZones: ReadonlySet<string> = new Set();
  readonly #solverCache = new SolverCache();
  /** When the solve under way began (on `elapsed`); undefined between solves. */
  #solveStartedAt: number | undefined;

  constructor(deps: ProvisionerDependencies, options: ProvisionerOptions = {}) {
    this.#deps = deps;
    const max = options.solverOptions?.maxInstanceTypes ?? DefaultMaxInstanceTypes;
    this.#solverOptions = { ...options.solverOptions, maxInstanceTypes: Math.min(max, MaxRequirementValues) };
    this.#timeoutMs = options.solveTimeoutMs ?? DefaultSolveTimeoutMs;
    this.#solve = options.solve ?? solveWithinBudget;
    this.#elapsed = options.elapsed ?? (() => performance.now() / 1000);
    this.#sliceMs = options.sliceMs ?? DefaultSliceMs;
    this.#defer = options.defer ?? deferToEventLoop;
    this.#controller = options.metricsController ?? 'provisioner';
    this.#createParallelism = options.createParallelism ?? DefaultCreateParallelism;
    this.#nominations = new TokenBucket(NominationsPerSecond, NominationBurst, deps.clock);
  }

  /** One pass. Errors of single steps (a create, an instance type list) are logged and reported, not thrown. */
  async provision(logger: Logger): Promise<ProvisioningOutcome> {
    const { state } = this.#deps;
    const published: PublishedEvent[] = [];
    this.#reportInvalidPods(published);

    const { instanceTypes, failed } = await this.#instanceTypes(logger);
    // The snapshot is cut synchronously from one state, so the nodes and the pending pods are
    // of the same instant (upstream takes nodes first so that a node registering while pods
    // are listed is not counted twice; here nothing can happen in between).
    const snapshot = state.snapshot(instanceTypes, {
      requireUnschedulable: true,
      requireReady: true,
      excludeNodePools: failed,
      solverOptions: this.#solverOptions,
      wellKnownLabels: this.#deps.cloudProvider.wellKnownLabels(),
    });
    const skippedNodePools = snapshot.unusableNodePools.map((u) => u.nodePool.metadata.name ?? '');
    const pods = snapshot.input.pods;
    this.#recordPendingZones(snapshot.input);
    if (pods.length === 0) {
      this.#deps.metrics.unschedulablePods.set({ controller: this.#controller }, 0);
      await this.#publish(published);
      return { pods: 0, nominated: 0, nodeClaims: [], unschedulable: 0, skippedNodePools };
    }
    for (const { nodePool, reason } of snapshot.unusableNodePools) {
      const message = notReadyDetail(nodePool);
      const detail =
        reason.startsWith('it is not Ready') && message !== undefined ? `${reason}: ${message}` : reason;
      published.push(nodePoolSkippedEvent(nodePool, detail));
      logger.debug({ NodePool: objectRef(nodePool), reason: detail }, 'skipping nodepool');
    }
    logger.info({ pods: pods.length }, 'found provisionable pod(s)');
    const times = state.schedulingTimes;
    const passStart = this.#deps.clock.now();
    for (const pod of pods) times.ack(podId(pod), passStart);

    const result = await this.#timedSolve(snapshot.input, logger);
    let nominated = 0;
    let unschedulable = 0;
    const decisions: [Pod, boolean][] = [];
    const onExisting = result.existing.reduce((n, p) => n + p.pods.length, 0);
    if (onExisting > 0) {
      // Without this a pass that found pods and made no NodeClaim would say nothing of them.
      logger.info(
        { pods: onExisting, nodes: result.existing.length },
        'nominated pod(s) to capacity already in the cluster',
      );
    }
    for (const placement of result.existing) {
      const capacity = snapshot.input.existing.find((e) => e.name === placement.name);
      const target = capacity === undefined ? { node: placement.name } : refOf(capacity);
      state.nominate(placement.pods, target);
      nominated += placement.pods.length;
      for (const pod of placement.pods) decisions.push([pod, true]);
      for (const pod of placement.pods) published.push(nominatedEvent(pod, target, this.#nominations));
    }
    if (result.newClaims.length > 0) {
      logger.info(
        {
          nodeclaims: result.newClaims.length,
          pods: result.newClaims.reduce((n, c) => n + c.pods.length, 0),
        },
        'computed new nodeclaim(s) to fit pod(s)',
      );
    }
    const pools = new Map(snapshot.input.nodePools.map((p) => [p.metadata.name ?? '', p]));
    const { outcomes, created } = await this.#createAll(result.newClaims, pools, instanceTypes, logger);
    for (const [i, claim] of result.newClaims.entries()) {
      const outcome = outcomes[i]!;
      if (outcome.ok) {
        const target = { nodeClaim: outcome.name };
        state.nominate(claim.pods, target);
        nominated += claim.pods.length;
        for (const pod of claim.pods) decisions.push([pod, true]);
        for (const pod of claim.pods) published.push(nominatedEvent(pod, target, this.#nominations));
      } else {
        unschedulable += claim.pods.length;
        for (const pod of claim.pods) decisions.push([pod, false]);
        for (const pod of claim.pods) published.push(failedSchedulingEvent(pod, outcome.reason));
      }
    }
    const noTypes = new Set(result.noCompatibleTypes ?? []);
    for (const name of [...this.#noTypesWarned.keys()])
      if (!noTypes.has(name)) this.#noTypesWarned.delete(name);
    for (const name of noTypes) {
      const pool = pools.get(name);
      if (pool === undefined) continue;
      if (this.#warnNoTypes(pool)) published.push(noCompatibleInstanceTypesEvent(pool));
      logger.info(
        {
          NodePool: { name },
          reason: 'its requirements filter out every instance type with an available offering',
        },
        'skipping nodepool',
      );
    }
    if (result.unschedulable.length > 0) {
      logger.info(
        { pods: result.unschedulable.length, reasons: unschedulableReasons(result.unschedulable) },
        'could not schedule pod(s)',
      );
    }
    for (const { pod, reason } of result.unschedulable) {
      unschedulable++;
      // A pod the solve's deadline cut off was not decided about: the next batch does.
      if (reason !== DeadlineExceededReason) decisions.push([pod, false]);
      published.push(failedSchedulingEvent(pod, reason));
      logger.debug({ Pod: objectRef(pod), reason }, 'could not schedule pod');
    }
    this.#deps.metrics.unschedulablePods.set({ controller: this.#controller }, unschedulable);
    this.#recordDecisions(decisions);
    await this.#publish(published);
    return {
      pods: pods.length,
      nominated,
      nodeClaims: created.map((c) => c.metadata.name ?? ''),
      unschedulable,
      skippedNodePools,
    };
  }

  /** How long the solve under way has run, for `karpenter_scheduler_unfinished_work_seconds`. */
  unfinishedSolve(): UnfinishedSolve {
    const started = this.#solveStartedAt;
    const seconds = started === undefined ? 0 : Math.max(0, this.#elapsed() - started);
    return { controller: this.#controller, seconds };
  }

  async #timedSolve(input: SolverInput, logger: Logger): Promise<SolverResult> {
    const { metrics } = this.#deps;
    const labels = { controller: this.#controller };
    metrics.queueDepth.set(labels, input.pods.length);
    const start = this.#elapsed();
    this.#solveStartedAt = start;
    try {
      const elapsedMs = () => this.#elapsed() * 1000;
      return await this.#solve(
        { ...input, cache: this.#solverCache },
        { timeoutMs: this.#timeoutMs, elapsedMs, slices: timeSlices(elapsedMs, this.#defer, this.#sliceMs) },
      );
    } finally {
      this.#solveStartedAt = undefined;
      const seconds = this.#elapsed() - start;
      metrics.schedulingDuration.observe(labels, seconds);
      metrics.queueDepth.set(labels, 0);
      if (seconds * 1000 > this.#timeoutMs) {
        logger.warn(
          { durationSeconds: seconds, timeoutSeconds: this.#timeoutMs / 1000, pods: input.pods.length },
          'scheduling simulation took longer than its time budget',
        );
      }
    }
  }

  /** Instance types of every NodePool that could be used; pools whose list failed, with why. */
  async #instanceTypes(
    logger: Logger,
  ): Promise<{ instanceTypes: Map<string, readonly InstanceType[]>; failed: Map<string, string> }> {
    const instanceTypes = new Map<string, readonly InstanceType[]>();
    const failed = new Map<string, string>();
    for (const pool of this.#deps.state.nodePools()) {
      if (whyNodePoolUnusable(pool, { requireReady: true }) !== undefined) continue;
      const name = pool.metadata.name ?? '';
      try {
        instanceTypes.set(name, await this.#deps.cloudProvider.getInstanceTypes(pool));
      } catch (err) {
        logger.error({ err, NodePool: objectRef(pool) }, 'could not list instance types');
        failed.set(name, `its instance types could not be listed (${(err as Error).message})`);
      }
    }
    return { instanceTypes, failed };
  }

  /**
   * Creates the NodeClaims of one solve, as Karpenter does, in parallel (up to
   * `createParallelism` at a time): a pass of hundreds of claims must not wait for each create
   * before the next. Each NodePool is read once first (is it still there, not deleting; its
   * latest limits), then every claim is checked against its pool's limits in order, counting
   * the claims checked before it, so the checks are those of one create after another; a create
   * that then fails leaves its room unused until the next pass. Outcomes are in the claims' order.
   */
  async #createAll(
    claims: readonly NewClaim[],
    snapshotPools: ReadonlyMap<string, NodePool>,
    instanceTypes: ReadonlyMap<string, readonly InstanceType[]>,
    logger: Logger,
  ): Promise<{ outcomes: CreateOutcome[]; created: NodeClaim[] }> {
    const latest = new Map<string, NodePool | { readonly reason: string }>();
    await eachBounded([...new Set(claims.map((c) => c.nodePool))], this.#createParallelism, async (name) => {
      latest.set(name, await this.#readNodePool(name, logger));
    });
    // Each pool's usage as the state sees it, plus the claims planned so far (each at the
    // largest type it may become); the state cannot change while the claims are planned.
    const { state } = this.#deps;
    const usage = new Map(
      clusterCapacity(state.nodes(), state.nodeClaims(), new Map(), { instanceTypes }).nodePoolUsage,
    );
    const outcomes: CreateOutcome[] = [];
    const toCreate: { readonly index: number; readonly claim: NewClaim; readonly nodeClaim: NodeClaim }[] =
      [];
    for (const [index, claim] of claims.entries()) {
      const inUse = usage.get(claim.nodePool) ?? new Map();
      const built = this.#build(claim, latest.get(claim.nodePool)!, snapshotPools, inUse, logger);
      if (!built.ok) {
        outcomes[index] = built;
        continue;
      }
      const one = new Map(largestCapacity(built.nodeClaim, instanceTypes)).set(
        'nodes',
        Quantity.fromUnits(1),
      );
      usage.set(claim.nodePool, addResources(inUse, one));
      toCreate.push({ index, claim, nodeClaim: built.nodeClaim });
    }
    const made: (NodeClaim | undefined)[] = [];
    await eachBounded(toCreate, this.#createParallelism, async ({ index, claim, nodeClaim }) => {
      const outcome = await this.#create(claim, nodeClaim, logger);
      outcomes[index] = outcome.ok ? { ok: true, name: outcome.nodeClaim.metadata.name ?? '' } : outcome;
      if (outcome.ok) made[index] = outcome.nodeClaim;
    });
    return { outcomes, created: made.filter((c) => c !== undefined) };
  }

  /** The NodePool as it is now, or why no claim of it may be created. */
  async #readNodePool(name: string, logger: Logger): Promise<NodePool | { readonly reason: string }> {
    try {
      const pool = (await this.#deps.cluster.get(NodePools, { name })) as NodePool;
      if (pool.metadata.deletionTimestamp !== undefined)
        return { reason: `NodePool ${name} is being deleted` };
      return pool;
    } catch (err) {
      if (isNotFound(err)) return { reason: `NodePool ${name} no longer exists` };
      logger.error({ err, NodePool: { name } }, 'could not read nodepool');
      return { reason: `NodePool ${name} could not be read: ${(err as Error).message}` };
    }
  }

  /** The NodeClaim for one solver claim, if its NodePool's limits, at `usage`, still allow it. */
  #build(
    claim: NewClaim,
    latest: NodePool | { readonly reason: string },
    snapshotPools: ReadonlyMap<string, NodePool>,
    usage: ResourceList,
    logger: Logger,
  ): { ok: true; nodeClaim: NodeClaim } | { ok: false; reason: string } {
    if ('reason' in latest) return { ok: false, reason: latest.reason };
    const exceeded = limitsExceededAtCreate(
      latest,
      usage,
      maxResources(...claim.instanceTypes.map((t) => t.capacity)),
    );
    if (exceeded !== undefined) {
      logger.info({ NodePool: { name: claim.nodePool }, reason: exceeded }, 'skipping nodeclaim creation');
      return { ok: false, reason: exceeded };
    }
    // The template comes from the parsed pool of the snapshot (defaults applied); the uid and
    // limits from the latest read.
    const pool = snapshotPools.get(claim.nodePool) ?? this.#deps.state.nodePool(claim.nodePool);
    if (pool === undefined) return { ok: false, reason: `NodePool ${claim.nodePool} is not valid` };
    const built = newNodeClaim(
      { ...pool, metadata: { ...pool.metadata, uid: latest.metadata.uid ?? pool.metadata.uid } },
      claim,
    );
    if (!built.ok) {
      logger.error({ NodePool: { name: claim.nodePool }, reason: built.reason }, 'could not build nodeclaim');
      return { ok: false, reason: built.reason };
    }
    return { ok: true, nodeClaim: built.nodeClaim };
  }

  /** Creates one built NodeClaim. */
  async #create(
    claim: NewClaim,
    built: NodeClaim,
    logger: Logger,
  ): Promise<{ ok: true; nodeClaim: NodeClaim } | { ok: false; reason: string }> {
    let nodeClaim: NodeClaim;
    try {
      nodeClaim = (await this.#deps.cluster.create(NodeClaims, built)) as NodeClaim;
    } catch (err) {
      logger.error({ err, NodePool: { name: claim.nodePool } }, 'could not create nodeclaim');
      return { ok: false, reason: `the NodeClaim could not be created: ${(err as Error).message}` };
    }
    recordNodeClaimCreated(this.#deps.lifecycleMetrics, nodeClaim, 'provisioning');
    const names = claim.instanceTypes.map((t) => t.name);
    logger.info(
      {
        NodeClaim: objectRef(nodeClaim),
        NodePool: { name: claim.nodePool },
        requests: nodeClaim.spec.resources?.requests,
        'instance-types':
          names.length > 5
            ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} other(s)`
            : names.join(', '),
        pods: claim.pods.length,
      },
      'created nodeclaim',
    );
    return { ok: true, nodeClaim };
  }

  /**
   * Whether to publish NoCompatibleInstanceTypes for `pool` now: every pass would otherwise
   * repeat it. Once per NodePool generation, and again after NoTypesWarningRepeatMs while the
   * pool stays without types, so the warning outlives the apiserver's event expiry.
   */
  #warnNoTypes(pool: NodePool): boolean {
    const name = pool.metadata.name ?? '';
    const generation = pool.metadata.generation ?? 0;
    const now = this.#deps.clock.now();
    const last = this.#noTypesWarned.get(name);
    if (last !== undefined && last.generation === generation && now - last.at < NoTypesWarningRepeatMs)
      return false;
    this.#noTypesWarned.set(name, { generation, at: now });
    return true;
  }

  /**
   * The pass's decision per pod (placed, on existing capacity or a created claim, or not) into
   * the state's scheduling times; observes
   * `karpenter_pods_scheduling_decision_duration_seconds` for each pod's first decision.
   */
  /** The pass's Pending pods by effective zone, replacing the last pass's series. */
  #recordPendingZones(input: SolverInput): void {
    const gauge = this.#deps.metrics.pendingPodsByEffectiveZone;
    const counts = pendingPodsByZone(input);
    for (const zone of this.#pendingZones) {
      if (!counts.has(zone)) gauge.remove({ controller: this.#controller, zone });
    }
    for (const [zone, count] of counts) gauge.set({ controller: this.#controller, zone }, count);
    this.#pendingZones = new Set(counts.keys());
  }

  #recordDecisions(decisions: readonly (readonly [Pod, boolean])[]): void {
    const times = this.#deps.state.schedulingTimes;
    const now = this.#deps.clock.now();
    for (const [pod, scheduled] of decisions) {
      const ms = times.decide(podId(pod), now, scheduled);
      if (ms !== undefined) this.#deps.metrics.schedulingDecisionDuration.observe(Math.max(0, ms) / 1000);
    }
  }

  /** InvalidPod once per pod version, for unbound pods the schema rejects; counts them as ignored. */
  #reportInvalidPods(out: PublishedEvent[]): void {
    const seen = new Set<string>();
    let ignored = 0;
    for (const { object, message } of this.#deps.state.invalidPods()) {
      const key = podId(object as Pod);
      seen.add(key);
      const nodeName = (object as { spec?: { nodeName?: string } }).spec?.nodeName;
      if (nodeName !== undefined && nodeName !== '') continue;
      ignored++;
      const version = object.metadata.resourceVersion ?? '';
      if (this.#reported.get(key) === version) continue;
      this.#reported.set(key, version);
      out.push(invalidPodEvent(object, message));
    }
    for (const key of [...this.#reported.keys()]) if (!seen.has(key)) this.#reported.delete(key);
    this.#deps.metrics.ignoredPods.set(ignored);
  }

  async #publish(events: readonly PublishedEvent[]): Promise<void> {
    for (const event of events) await this.#deps.events.publish(event);
  }
}

/** How a pod nominated to this capacity names it: the claim and the node where known. */
function refOf(capacity: ExistingCapacity): CapacityRef {
  const nodeClaim = capacity.nodeClaim?.metadata.name;
  const node = capacity.node?.metadata.name;
  return {
    ...(nodeClaim === undefined ? {} : { nodeClaim }),
    ...(node === undefined ? {} : { node }),
  };
}
