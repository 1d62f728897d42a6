import type { PodDisruptionBudget } from '../../apis/kubernetes/pod-disruption-budget.js';
import type { DisruptionReason } from '../../apis/v1/budget.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { Clock } from '../../clock/clock.js';
import { DefaultSliceMs, type Defer, deferToEventLoop, type Slices, timeSlices } from '../../clock/slices.js';
import type { CloudProvider } from '../../cloudprovider/cloud-provider.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import type { ObjectKey } from '../../kube/object.js';
import type { ClusterPort } from '../../kube/port.js';
import { NodeClaims, PodDisruptionBudgets } from '../../kube/resource-types.js';
import type { LifecycleMetrics } from '../../lifecycle/metrics.js';
import { skipWhileUnsynced, UnsyncedRetryMs } from '../../operator/runtime/cache-sync.js';
import type { Controller, ReconcileContext, ReconcileResult } from '../../operator/runtime/controller.js';
import { watchMapped } from '../../operator/runtime/controller.js';
import type { EventRecorder } from '../../operator/runtime/event-recorder.js';
import { SolverCache } from '../../scheduling/solver/solver-cache.js';
import type { ClusterState } from '../../state/cluster-state.js';
import { NodeDriftMemo } from '../decide/candidates/drift.js';
import { ManagedNodeMemo } from '../decide/candidates/managed-node.js';
import { NodeFactsMemo } from '../decide/candidates/node-facts.js';
import { NodePriceMemo } from '../decide/candidates/node-price.js';
import { computeDisruptionInSlices, type DisruptionResult } from '../decide/compute-disruption.js';
import { NodeRoom } from '../decide/methods/node-room.js';
import { nextEligibilityInstant } from '../decide/next-eligibility.js';
import { SimulationMemo } from '../decide/simulation/simulation-memo.js';
import type { DisruptionOptions, DisruptionSnapshot } from '../decide/snapshot.js';
import { validateCommandInSlices } from '../decide/validation.js';
import { DisruptionQueue, isDisruptedTaint } from '../execute/disruption-queue.js';
import { DisruptionEventReasons, publishOnNode } from './events.js';
import { consolidationType, type DisruptionMetrics, reasonLabel } from './metrics.js';
import { type PublishedVerdict, verdictDue } from './verdict-repeat.js';

/** What the disruption controller is built from. */
export interface DisruptionControllerDependencies {
  readonly cluster: ClusterPort;
  readonly cloudProvider: CloudProvider;
  readonly clock: Clock;
  readonly events: EventRecorder;
  /** The provisioner's cluster state: the snapshot source, and where deletion marks go. */
  readonly state: ClusterState;
  readonly metrics: DisruptionMetrics;
  /** For nodeclaims_created_total{reason=disruption} and nodeclaims_disrupted_total. */
  readonly lifecycleMetrics: LifecycleMetrics;
}

/** Timings and knobs; each has Karpenter's default. */
export interface DisruptionControllerOptions {
  /** Between passes. Default 10 s. */
  readonly pollIntervalMs?: number;
  /** From a decision to its re-validation. Default 15 s. */
  readonly validationDelayMs?: number;
  /** How long replacements may take to initialize before the command is rolled back. Default 10 min. */
  readonly replacementTimeoutMs?: number;
  /**
   * After a pass that decided nothing, later passes are skipped while nothing a pass reads has
   * changed and the next instant a time rule can change the outcome (`nextEligibilityInstant`:
   * consolidateAfter, do-not-disrupt durations, budget windows, nominations) has not come; the
   * controller requeues for exactly that instant. This caps a skip even then — as upstream
   * re-checks a cluster it found consolidated after 5 min. Default 300 000; 0 never skips.
   */
  readonly idleSkipMs?: number;
  readonly disruption?: DisruptionOptions;
  /**
   * Longest stretch (on `elapsedMs`) a pass's search runs without giving the event loop a turn,
   * so Lease renewals, probes and scrapes are answered during a search over thousands of nodes;
   * default 20 ms. `Infinity` never yields (the simulator: its passes must not interleave with
   * other controllers' work).
   */
  readonly sliceMs?: number;
  /** Monotonic milliseconds the slices are measured on; default `performance.now()`. */
  readonly elapsedMs?: () => number;
  /** How a pass gives the event loop a turn; default `setImmediate`. */
  readonly defer?: Defer;
}

/** The shortest time between two Unconsolidatable events of one node (Karpenter dedupes them for 15 minutes). */
export const UnconsolidatableRepeatMs = 15 * 60_000;

/** The one key the controller reconciles. */
const DisruptionControllerKey: ObjectKey = { name: 'disruption' };

/**
 * `disruption`: the voluntary disruption loop, joining the two halves. Deciding: every poll it
 * cuts a snapshot from cluster state and runs `computeDisruption` (`../decide`). Executing: the
 * winning pass's first command goes to the `DisruptionQueue` (`../execute`), which taints,
 * re-validates against a fresh snapshot after the validation delay, replaces, deletes or rolls
 * back. One command is in flight at a time; no pass runs while it is.
 *
 * Nodes that may not be disrupted get a DisruptionBlocked event (on the Node and its NodeClaim)
 * when their reason changes, and nodes consolidation tried and could not take an Unconsolidatable
 * one when its explanation changes; a NodePool whose budget stops a reason's disruptions gets one when
 * that block begins or changes.
 */
export class DisruptionController implements Controller {
  readonly name = 'disruption';
  readonly initialKeys = [DisruptionControllerKey];
  readonly watches;
  readonly #deps: DisruptionControllerDependencies;
  readonly #poll: number;
  readonly #validationDelay: number;
  readonly #timeout: number;
  readonly #idleSkip: number;
  readonly #options: DisruptionOptions | undefined;
  readonly #sliceMs: number;
  readonly #elapsedMs: () => number;
  readonly #defer: Defer;
  readonly #queue: DisruptionQueue;
  readonly #blocked = new Map<string, string>();
  /** Node -> the Unconsolidatable message last published for it, and when. */
  readonly #unconsolidatable = new Map<string, PublishedVerdict>();
  /** `nodePool/reason` -> the budget block last published for it. */
  readonly #blockedBudgets = new Map<string, string>();
  readonly #offeringParts = new WeakMap<InstanceType, string>();
  /** The fingerprint's part of each object cluster state holds (a new object on every change). */
  readonly #objectParts = new WeakMap<object, string>();
  readonly #solverCache = new SolverCache();
  readonly #managedNodes = new ManagedNodeMemo();
  readonly #nodePrices = new NodePriceMemo();
  readonly #nodeDrift = new NodeDriftMemo();
  readonly #nodeFacts = new NodeFactsMemo();
  /** The last pass's snapshot and the simulations run over it, while what it saw holds (see #passSnapshot). */
  #lastSeen:
    | {
        readonly fingerprint: Fingerprint;
        readonly types: ReadonlyMap<string, readonly InstanceType[]>;
        readonly snapshot: DisruptionSnapshot;
      }
    | undefined;
  /** Set by a pass that decided nothing: what it saw, when, and when time alone could change that. */
  #idle: { readonly fingerprint: Fingerprint; readonly since: number; readonly until: number } | undefined;
  /**
   * The fingerprint's cluster-state parts, kept while the state's generation holds and until the
   * first pod nomination window then open closes (the one change time makes on its own): most
   * 10 s polls at 500 nodes find nothing applied since the last.
   */
  #stateSeen:
    | { readonly generation: number; readonly until: number; readonly parts: readonly string[] }
    | undefined;

  constructor(deps: DisruptionControllerDependencies, options: DisruptionControllerOptions = {}) {
    this.#deps = deps;
    this.#poll = options.pollIntervalMs ?? 10_000;
    this.#validationDelay = options.validationDelayMs ?? 15_000;
    this.#timeout = options.replacementTimeoutMs ?? 600_000;
    this.#idleSkip = options.idleSkipMs ?? 300_000;
    this.#options = options.disruption;
    this.#sliceMs = options.sliceMs ?? DefaultSliceMs;
    this.#elapsedMs = options.elapsedMs ?? (() => performance.now());
    this.#defer = options.defer ?? deferToEventLoop;
    this.#queue = new DisruptionQueue(deps, {
      pollIntervalMs: this.#poll,
      validationDelayMs: this.#validationDelay,
      replacementTimeoutMs: this.#timeout,
    });
    // Replacement progress is event-driven; passes themselves poll.
    this.watches = [
      watchMapped(NodeClaims, (claim) =>
        this.#queue.awaits(claim.metadata.name ?? '') ? [DisruptionControllerKey] : [],
      ),
      // Watched so the cache holds them for the snapshot; a PDB change alone starts no pass.
      watchMapped(PodDisruptionBudgets, () => []),
    ];
  }

  async reconcile(_key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> {
    const now = this.#deps.clock.now();
    const unsynced = skipWhileUnsynced(context, UnsyncedRetryMs);
    if (unsynced !== undefined) return unsynced;
    // Before deciding, so a node stranded by a lost command is a candidate in this very pass.
    await this.#queue.releaseStranded(context);
    if (!this.#queue.busy) return this.#pass(now, context);
    return this.#queue.step(now, context, async (command) => {
      const snapshot = this.#snapshot(await this.#instanceTypes(), new Set(command.candidates), context);
      return validateCommandInSlices(command, snapshot, now, this.#slices(), this.#options);
    });
  }

  /** Fresh slices for one pass or one re-validation. */
  #slices(): Slices {
    return timeSlices(this.#elapsedMs, this.#defer, this.#sliceMs);
  }

  /** The last pass's explanation per node, for callers that want to show it. */
  blockedNodes(): ReadonlyMap<string, string> {
    return this.#blocked;
  }

  async #pass(now: number, context: ReconcileContext): Promise<ReconcileResult> {
    const types = await this.#instanceTypes();
    const fingerprint = this.#fingerprint(types, context);
    const idle = this.#idle;
    if (idle !== undefined && now < idle.until && sameFingerprint(idle.fingerprint, fingerprint))
      return { requeueAfterMs: Math.min(this.#poll, idle.until - now) };
    const snapshot = this.#passSnapshot(fingerprint, types, context);
    // The search's time budgets run on the controller's clock unless the options name another:
    // real time in the operator; the simulator's clock stands still during a pass, so a
    // simulation never cuts a search short.
    const result = await computeDisruptionInSlices(snapshot, now, this.#slices(), {
      ...this.#options,
      searchClock: this.#options?.searchClock ?? this.#deps.clock,
      elapsedMs: this.#elapsedMs,
    });
    for (const e of result.evaluated)
      if (e.seconds !== undefined)
        this.#deps.metrics.evaluationDuration.observe(
          { reason: reasonLabel(e.reason), consolidation_type: consolidationType(e.method) },
          e.seconds,
        );
    for (const move of result.scoredMoves) {
      const labels = { decision: move.decision, nodepool: move.nodePool, policy: move.policy };
      this.#deps.metrics.consolidationMoves.inc(labels);
      if (move.score !== undefined)
        this.#deps.metrics.consolidationScore.observe(
          { ...labels, decision: move.score.approved ? 'approved' : 'rejected' },
          move.score.value,
        );
    }
    for (const cut of result.cutShort) {
      this.#deps.metrics.consolidationTimeouts.inc({ consolidation_type: consolidationType(cut.method) });
      context.logger.info(
        {
          method: cut.method,
          budgetMs: cut.budgetMs,
          elapsedMs: cut.elapsedMs,
          simulations: cut.attempts,
          skipped: cut.skipped.length,
          skippedNodes: cut.skipped.slice(0, 20),
        },
        cut.message,
      );
    }
    for (const [reason, count] of Object.entries(result.eligible))
      this.#deps.metrics.eligibleNodes.set({ reason: reasonLabel(reason as DisruptionReason) }, count);
    await this.#explain(result, snapshot);
    await this.#explainBudgets(result);
    const command = result.commands[0];
    if (command === undefined) {
      const wake = Math.min(
        nextEligibilityInstant(snapshot, now) ?? Number.POSITIVE_INFINITY,
        this.#deps.state.nextNominationExpiry() ?? Number.POSITIVE_INFINITY,
      );
      // The cap bounds skipping only: with idleSkipMs 0 passes still come every poll, not every 1 ms.
      this.#idle = { fingerprint, since: now, until: Math.min(wake, now + this.#idleSkip) };
      return { requeueAfterMs: Math.max(1, Math.min(this.#poll, wake - now)) };
    }
    this.#idle = undefined;
    const claims = new Map<string, string>();
    for (const name of command.candidates) {
      const claim = snapshot.capacity.find((c) => c.node?.metadata.name === name)?.nodeClaim;
      if (claim?.metadata.name !== undefined) claims.set(name, claim.metadata.name);
    }
    return this.#queue.start(command, claims, now, context);
  }

  /**
   * DisruptionBlocked on each blocked Node and its NodeClaim when the node's reason changes, and
   * Unconsolidatable on each node consolidation tried without taking when that reason changes
   * (a pass every 10 s would otherwise repeat the same event on every underutilized node).
   */
  async #explain(result: DisruptionResult, snapshot: DisruptionSnapshot): Promise<void> {
    const now = this.#deps.clock.now();
    const claims = new Map<string, NodeClaim>();
    for (const c of snapshot.capacity)
      if (c.node !== undefined && c.nodeClaim !== undefined) claims.set(c.node.metadata.name, c.nodeClaim);
    const publish = async (node: string, reason: string, message: string) => {
      await this.#publishOnNode(node, 'Normal', reason, message);
      const claim = claims.get(node);
      if (claim !== undefined)
        await this.#deps.events.publish({ object: claim, type: 'Normal', reason, message });
    };
    const seen = new Set<string>();
    for (const status of result.nodes) {
      seen.add(status.node);
      const untaken = status.unconsolidatable;
      const last = this.#unconsolidatable.get(status.node);
      // A new verdict, but at most one per node per UnconsolidatableRepeatMs: while a fleet
      // grows, each pass words it anew (prices, pods), and thousands of nodes' events would
      // crowd the apiserver (bench:operator-load at 20,000 pods).
      if (untaken !== undefined && verdictDue(last, untaken, now, UnconsolidatableRepeatMs)) {
        this.#unconsolidatable.set(status.node, { message: untaken, at: now });
        await publish(status.node, DisruptionEventReasons.Unconsolidatable, untaken);
      }
      if (status.disruptable || status.blockedBy === undefined) {
        this.#blocked.delete(status.node);
        continue;
      }
      if (this.#blocked.get(status.node) === status.blockedBy) continue;
      this.#blocked.set(status.node, status.blockedBy);
      await publish(status.node, DisruptionEventReasons.DisruptionBlocked, status.blockedBy);
    }
    for (const name of [...this.#blocked.keys()]) if (!seen.has(name)) this.#blocked.delete(name);
    for (const name of [...this.#unconsolidatable.keys()])
      if (!seen.has(name)) this.#unconsolidatable.delete(name);
  }

  /**
   * DisruptionBlocked on a NodePool whose budget stops a reason's disruptions: once when the
   * block begins or its explanation changes, not every pass; again after it has lifted.
   */
  async #explainBudgets(result: DisruptionResult): Promise<void> {
    const now = new Map(result.blockedBudgets.map((b) => [`${b.nodePool}/${b.reason}`, b]));
    for (const key of [...this.#blockedBudgets.keys()]) if (!now.has(key)) this.#blockedBudgets.delete(key);
    for (const [key, block] of now) {
      if (this.#blockedBudgets.get(key) === block.message) continue;
      this.#blockedBudgets.set(key, block.message);
      const pool = this.#deps.state.nodePool(block.nodePool);
      if (pool === undefined) continue;
      await this.#deps.events.publish({
        object: pool,
        type: 'Normal',
        reason: DisruptionEventReasons.DisruptionBlocked,
        message: block.message,
      });
    }
  }

  async #instanceTypes(): Promise<Map<string, readonly InstanceType[]>> {
    const types = new Map<string, readonly InstanceType[]>();
    for (const pool of this.#deps.state.nodePools()) {
      try {
        types.set(pool.metadata.name ?? '', await this.#deps.cloudProvider.getInstanceTypes(pool));
      } catch {
        types.set(pool.metadata.name ?? '', []);
      }
    }
    return types;
  }

  #snapshot(
    types: ReadonlyMap<string, readonly InstanceType[]>,
    ownCandidates: ReadonlySet<string>,
    context: ReconcileContext,
  ): DisruptionSnapshot {
    const { state } = this.#deps;
    const pools = state.nodePools();
    const { input } = state.snapshot(types, { wellKnownLabels: this.#deps.cloudProvider.wellKnownLabels() });
    // Our own taint and mark must not disqualify the command's candidates when re-validating it.
    const capacity =
      ownCandidates.size === 0
        ? input.existing
        : input.existing.map((e) => {
            const node = e.node;
            if (node === undefined || !ownCandidates.has(node.metadata.name)) return e;
            const taints = (node.spec.taints ?? []).filter((t) => !isDisruptedTaint(t));
            return { ...e, node: { ...node, spec: { ...node.spec, taints } }, markedForDeletion: false };
          });
    return {
      capacity,
      pendingPods: input.pods,
      nodePools: pools,
      instanceTypes: types,
      daemonSets: input.daemonSets,
      podDisruptionBudgets: context.cache.list(PodDisruptionBudgets) as unknown as PodDisruptionBudget[],
      persistentVolumeClaims: input.persistentVolumeClaims ?? [],
      persistentVolumes: input.persistentVolumes ?? [],
      storageClasses: input.storageClasses ?? [],
      ...(input.nodePoolUsage === undefined ? {} : { nodePoolUsage: input.nodePoolUsage }),
      ...(input.wellKnownLabels === undefined ? {} : { wellKnownLabels: input.wellKnownLabels }),
      solverCache: this.#solverCache,
      managedNodes: this.#managedNodes,
      nodePrices: this.#nodePrices,
      nodeDrift: this.#nodeDrift,
      nodeFacts: this.#nodeFacts,
    };
  }

  /**
   * Changes whenever something a pass reads changes: every pod, PDB, DaemonSet and volume object
   * (by resourceVersion: their status matters too — readiness feeds PDBs), pod nominations,
   * nodes' taints, labels, annotations, readiness, allocatable and deletion, NodeClaims'
   * conditions, labels, annotations, lastPodEventTime and deletion, NodePools (by
   * resourceVersion: limits read their status), deletion marks, and each offering's availability
   * and price. Node heartbeats and other status churn leave it alone, so an idle cluster is
   * recognised as idle. Each object's part is built once (cluster state holds a new object for
   * every change), as polls outnumber changes; nominations and marks are read whenever the
   * state's parts are built again (see #stateSeen).
   */
  #fingerprint(types: ReadonlyMap<string, readonly InstanceType[]>, context: ReconcileContext): Fingerprint {
    const { state } = this.#deps;
    const now = this.#deps.clock.now();
    const generation = state.generation();
    let kept = this.#stateSeen;
    if (kept === undefined || kept.generation !== generation || now >= kept.until) {
      kept = {
        generation,
        until: state.nextNominationExpiry() ?? Number.POSITIVE_INFINITY,
        parts: this.#stateParts(),
      };
      this.#stateSeen = kept;
    }
    const rest: string[] = [];
    for (const pdb of context.cache.list(PodDisruptionBudgets)) rest.push(`b${rv(pdb)}`);
    for (const [pool, list] of types) {
      rest.push(`T${pool}`);
      for (const t of list) rest.push(this.#offeringsPart(t));
    }
    return { state: kept.parts, rest };
  }

  /** The fingerprint's parts read from cluster state (see #fingerprint). */
  #stateParts(): string[] {
    const { state } = this.#deps;
    const objects = state.objects();
    const parts: string[] = [];
    const part = (object: object, build: () => string): string => {
      let cached = this.#objectParts.get(object);
      if (cached === undefined) {
        cached = build();
        this.#objectParts.set(object, cached);
      }
      return cached;
    };
    for (const p of objects.pods) {
      const nominated = p.spec.nodeName ? undefined : state.nominationOf(p);
      parts.push(
        part(p, () => `p${rv(p)}:${p.spec.nodeName ?? ''}:${p.status?.phase ?? ''}`),
        nominated === undefined ? '' : JSON.stringify(nominated),
      );
    }
    for (const n of objects.nodes) {
      const seen = part(n, () => {
        const ready = (n.status?.conditions ?? []).find((c) => c.type === 'Ready')?.status ?? '';
        return `n${n.metadata.name}:${JSON.stringify([n.spec.taints, n.spec.unschedulable, n.metadata.labels, n.metadata.annotations, n.status?.allocatable])}:${ready}:${n.metadata.deletionTimestamp ?? ''}`;
      });
      parts.push(seen, state.isMarkedForDeletion(n.metadata.name) ? 'm' : '');
    }
    for (const c of objects.nodeClaims) {
      const name = c.metadata.name ?? '';
      const seen = part(c, () => {
        const conditions = (c.status?.conditions ?? []).map((x) => `${x.type}=${x.status}`).join(',');
        return `c${name}:${conditions}:${JSON.stringify([c.metadata.labels, c.metadata.annotations, c.status?.lastPodEventTime])}:${c.metadata.deletionTimestamp ?? ''}`;
      });
      parts.push(seen, state.isMarkedForDeletion(name) ? 'm' : '');
    }
    for (const p of objects.nodePools) parts.push(`P${rv(p)}`);
    for (const o of [
      ...(objects.daemonSets ?? []),
      ...(objects.persistentVolumeClaims ?? []),
      ...(objects.persistentVolumes ?? []),
      ...(objects.storageClasses ?? []),
    ])
      parts.push(`o${rv(o)}`);
    return parts;
  }

  /**
   * The snapshot for a pass that saw `fingerprint` and `types`, with its simulations memo: the
   * last pass's while both are the same (every object the snapshot is cut from is then
   * unchanged, the types by identity, as providers return the same array while nothing
   * changed: a pass that time alone woke reads what the last one read), a new one otherwise.
   */
  #passSnapshot(
    fingerprint: Fingerprint,
    types: ReadonlyMap<string, readonly InstanceType[]>,
    context: ReconcileContext,
  ): DisruptionSnapshot {
    const last = this.#lastSeen;
    if (last !== undefined && sameTypes(last.types, types) && sameFingerprint(last.fingerprint, fingerprint))
      return last.snapshot;
    const base = { ...this.#snapshot(types, new Set(), context), simulations: new SimulationMemo() };
    const snapshot = { ...base, room: new NodeRoom(base) };
    this.#lastSeen = { fingerprint, types, snapshot };
    return snapshot;
  }

  /** Per instance-type object (providers return the same object while nothing changed). */
  #offeringsPart(t: InstanceType): string {
    let part = this.#offeringParts.get(t);
    if (part === undefined) {
      part = `${t.name}${t.offerings.map((o) => `/${o.capacityType}/${o.zone}:${o.available ? 1 : 0}:${o.price}`).join('')}`;
      this.#offeringParts.set(t, part);
    }
    return part;
  }

  #publishOnNode(nodeName: string, type: 'Normal' | 'Warning', reason: string, message: string) {
    return publishOnNode(this.#deps, nodeName, type, reason, message);
  }
}

/**
 * What a pass reads, as parts (see DisruptionController#fingerprint): those from cluster state,
 * the same array while the state has not changed, and the PDBs' and offerings' parts.
 */
interface Fingerprint {
  readonly state: readonly string[];
  readonly rest: readonly string[];
}

function rv(o: { metadata: { uid?: string; name?: string; resourceVersion?: string } }): string {
  return `${o.metadata.uid ?? o.metadata.name ?? ''}@${o.metadata.resourceVersion ?? ''}`;
}

function sameFingerprint(a: Fingerprint, b: Fingerprint): boolean {
  return (a.state === b.state || sameParts(a.state, b.state)) && sameParts(a.rest, b.rest);
}

/**
 * Whether two lists of parts are equal, part by part: a part built once per object is the same
 * string each pass, so comparing them is mostly a pointer check, where a joined string would be
 * rebuilt and compared character by character on every 10 s poll.
 */
function sameParts(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether each NodePool has the very same instance-type array in both. */
function sameTypes(
  a: ReadonlyMap<string, readonly InstanceType[]>,
  b: ReadonlyMap<string, readonly InstanceType[]>,
): boolean {
  if (a.size !== b.size) return false;
  for (const [pool, types] of a) if (b.get(pool) !== types) return false;
  return true;
}
