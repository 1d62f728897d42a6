import type { Node } from '../../apis/kubernetes/node.js';
import type { PodDisruptionBudget } from '../../apis/kubernetes/pod-disruption-budget.js';
import { Taints } from '../../apis/labels.js';
import type { DisruptionReason } from '../../apis/v1/budget.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { Clock } from '../../clock/clock.js';
import type { CloudProvider } from '../../cloudprovider/cloud-provider.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import { isNotFound } from '../../kube/errors.js';
import type { ObjectKey } from '../../kube/object.js';
import type { ClusterPort } from '../../kube/port.js';
import { isConditionTrue } from '../../lifecycle/conditions.js';
import {
  type LifecycleMetrics,
  recordNodeClaimCreated,
  recordNodeClaimDisrupted,
} from '../../lifecycle/metrics.js';
import { asPatch } from '../../lifecycle/patch.js';
import { NodeClaims, Nodes, PodDisruptionBudgets } from '../../lifecycle/resource-types.js';
import type { Controller, ReconcileContext, ReconcileResult } from '../../operator/runtime/controller.js';
import { watchMapped } from '../../operator/runtime/controller.js';
import type { EventRecorder } from '../../operator/runtime/event-recorder.js';
import { newNodeClaim } from '../../provisioning/new-nodeclaim.js';
import { SolverCache } from '../../scheduling/solver/solver-cache.js';
import { isTaint, type TaintLike } from '../../scheduling/taints/tolerations.js';
import type { ClusterState } from '../../state/cluster-state.js';
import { computeDisruption, type DisruptionResult } from '../compute-disruption.js';
import type { DisruptionCommand } from '../methods/method.js';
import type { DisruptionOptions, DisruptionSnapshot } from '../snapshot.js';
import { validateCommand } from '../validation.js';
import { DisruptionEventReasons } from './events.js';
import type { DisruptionMetrics } from './metrics.js';
import { nextEligibilityInstant } from './next-eligibility.js';

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
}

/** The one key the controller reconciles. */
export const DisruptionControllerKey: ObjectKey = { name: 'disruption' };

type Phase =
  | { readonly kind: 'validating'; readonly at: number }
  | { readonly kind: 'replacing'; readonly replacements: readonly string[]; readonly deadline: number };

interface InFlight {
  readonly command: DisruptionCommand;
  /** Candidate node name -> its NodeClaim's name. */
  readonly claims: ReadonlyMap<string, string>;
  phase: Phase;
}

const reasonLabel = (r: DisruptionReason): string => r.toLowerCase();
const consolidationType: Record<DisruptionCommand['method'], string> = {
  emptiness: 'empty',
  drift: '',
  'multi-node-consolidation': 'multi',
  'single-node-consolidation': 'single',
};
const isDisruptedTaint = (t: TaintLike) => isTaint(t, Taints.Disrupted);

/**
 * `disruption`: the voluntary disruption loop. Every poll it cuts a snapshot from cluster state
 * and runs `computeDisruption`; for the winning pass's first command it taints the candidates
 * `karpenter.sh/disrupted:NoSchedule` (and marks them for deletion in state), waits the
 * validation delay, re-validates against a fresh snapshot (rolling the taints back if the
 * command no longer holds), creates the replacement NodeClaims, waits until every replacement
 * is Initialized, then deletes the candidates' NodeClaims (the termination controllers drain
 * and terminate). A replacement that disappears or does not initialize in time rolls the
 * command back: taints removed, replacements deleted. One command is in flight at a time.
 *
 * Nodes that may not be disrupted get a DisruptionBlocked event (on the Node and its NodeClaim)
 * when their reason changes; a NodePool whose budget stops a reason's disruptions gets one when
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
  #inFlight: InFlight | undefined;
  readonly #blocked = new Map<string, string>();
  /** `nodePool/reason` -> the budget block last published for it. */
  readonly #blockedBudgets = new Map<string, string>();
  readonly #offeringParts = new WeakMap<InstanceType, string>();
  /** The fingerprint's part of each object cluster state holds (a new object on every change). */
  readonly #objectParts = new WeakMap<object, string>();
  readonly #solverCache = new SolverCache();
  /** Set by a pass that decided nothing: what it saw, when, and when time alone could change that. */
  #idle: { readonly fingerprint: string; readonly since: number; readonly until: number } | undefined;

  constructor(deps: DisruptionControllerDependencies, options: DisruptionControllerOptions = {}) {
    this.#deps = deps;
    this.#poll = options.pollIntervalMs ?? 10_000;
    this.#validationDelay = options.validationDelayMs ?? 15_000;
    this.#timeout = options.replacementTimeoutMs ?? 600_000;
    this.#idleSkip = options.idleSkipMs ?? 300_000;
    this.#options = options.disruption;
    // Replacement progress is event-driven; passes themselves poll.
    this.watches = [
      watchMapped(NodeClaims, (claim) =>
        this.#inFlight?.phase.kind === 'replacing' &&
        this.#inFlight.phase.replacements.includes(claim.metadata.name ?? '')
          ? [DisruptionControllerKey]
          : [],
      ),
      // Watched so the cache holds them for the snapshot; a PDB change alone starts no pass.
      watchMapped(PodDisruptionBudgets, () => []),
    ];
  }

  async reconcile(_key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult> {
    const now = this.#deps.clock.now();
    const op = this.#inFlight;
    if (op === undefined) return this.#pass(now, context);
    if (op.phase.kind === 'validating') {
      if (now < op.phase.at) return { requeueAfterMs: op.phase.at - now };
      return this.#validate(op, now, context);
    }
    return this.#awaitReplacements(op, op.phase, now, context);
  }

  /** The last pass's explanation per node, for callers that want to show it. */
  blockedNodes(): ReadonlyMap<string, string> {
    return this.#blocked;
  }

  async #pass(now: number, context: ReconcileContext): Promise<ReconcileResult> {
    const types = await this.#instanceTypes();
    const fingerprint = this.#fingerprint(types, context);
    const idle = this.#idle;
    if (idle !== undefined && idle.fingerprint === fingerprint && now < idle.until)
      return { requeueAfterMs: Math.min(this.#poll, idle.until - now) };
    const snapshot = this.#snapshot(types, new Set(), context);
    const result = computeDisruption(snapshot, now, this.#options);
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
    this.#inFlight = { command, claims, phase: { kind: 'validating', at: now + this.#validationDelay } };
    this.#deps.state.markForDeletion(...command.candidates, ...claims.values());
    for (const name of command.candidates) await this.#setTaint(name, true);
    context.logger.info(
      {
        method: command.method,
        reason: command.reason,
        candidates: command.candidates,
        savingsPerHour: command.savingsPerHour,
      },
      'disruption command decided; validating',
    );
    return { requeueAfterMs: this.#validationDelay };
  }

  async #validate(op: InFlight, now: number, context: ReconcileContext): Promise<ReconcileResult> {
    const snapshot = this.#snapshot(await this.#instanceTypes(), new Set(op.command.candidates), context);
    const check = validateCommand(op.command, snapshot, now, this.#options);
    if (!check.valid) {
      await this.#rollback(op, `validation failed: ${check.reason}`, [], context);
      return { requeueAfterMs: this.#poll };
    }
    const { command } = op;
    this.#deps.metrics.decisions.inc({
      decision: command.replacements.length > 0 ? 'replace' : 'delete',
      reason: reasonLabel(command.reason),
      consolidation_type: consolidationType[command.method],
    });
    if (command.replacements.length === 0) return this.#terminate(op, context);
    const names: string[] = [];
    for (const replacement of command.replacements) {
      const pool = this.#deps.state.nodePool(replacement.nodePool);
      if (pool === undefined) {
        await this.#rollback(op, `NodePool ${replacement.nodePool} is gone`, names, context);
        return { requeueAfterMs: this.#poll };
      }
      const built = newNodeClaim(pool, replacement);
      if (!built.ok) {
        await this.#rollback(op, `replacement NodeClaim is invalid: ${built.reason}`, names, context);
        return { requeueAfterMs: this.#poll };
      }
      const created = await this.#deps.cluster.create(NodeClaims, built.nodeClaim);
      recordNodeClaimCreated(this.#deps.lifecycleMetrics, created, 'disruption');
      names.push(created.metadata.name ?? '');
    }
    for (const name of command.candidates) {
      await this.#publishOnNode(
        name,
        'Normal',
        DisruptionEventReasons.DisruptionLaunching,
        `Launching NodeClaim ${names.join(', ')} to replace it (${command.method}: ${command.reason})`,
      );
    }
    op.phase = { kind: 'replacing', replacements: names, deadline: now + this.#timeout };
    return { requeueAfterMs: this.#poll };
  }

  async #awaitReplacements(
    op: InFlight,
    phase: Extract<Phase, { kind: 'replacing' }>,
    now: number,
    context: ReconcileContext,
  ): Promise<ReconcileResult> {
    let ready = true;
    for (const name of phase.replacements) {
      const claim = this.#deps.state.nodeClaim(name) ?? (await this.#find(name));
      if (claim === undefined || claim.metadata.deletionTimestamp !== undefined) {
        await this.#rollback(
          op,
          `replacement NodeClaim ${name} was deleted before it initialized`,
          phase.replacements,
          context,
        );
        return { requeueAfterMs: this.#poll };
      }
      if (!isConditionTrue(claim.status?.conditions, 'Initialized')) ready = false;
    }
    if (!ready) {
      if (now >= phase.deadline) {
        await this.#rollback(op, 'replacements did not initialize in time', phase.replacements, context);
        return { requeueAfterMs: this.#poll };
      }
      return { requeueAfterMs: Math.min(this.#poll, phase.deadline - now) };
    }
    return this.#terminate(op, context);
  }

  async #terminate(op: InFlight, context: ReconcileContext): Promise<ReconcileResult> {
    const { command } = op;
    for (const node of command.candidates) {
      const claimName = op.claims.get(node);
      const claim = claimName === undefined ? undefined : this.#deps.state.nodeClaim(claimName);
      const message = `Disrupting: ${command.reason} (${command.method})`;
      await this.#publishOnNode(node, 'Normal', DisruptionEventReasons.DisruptionTerminating, message);
      if (claim === undefined || claimName === undefined) continue;
      await this.#deps.events.publish({
        object: claim,
        type: 'Normal',
        reason: DisruptionEventReasons.DisruptionTerminating,
        message,
      });
      try {
        await this.#deps.cluster.delete(NodeClaims, { name: claimName });
        recordNodeClaimDisrupted(this.#deps.lifecycleMetrics, claim, reasonLabel(command.reason));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    context.logger.info({ method: command.method, candidates: command.candidates }, 'disrupted nodes');
    this.#inFlight = undefined;
    return { requeueAfterMs: this.#poll };
  }

  /** Abandons the command: replacements deleted, candidates untainted and unmarked, the reason logged and evented. */
  async #rollback(
    op: InFlight,
    why: string,
    replacements: readonly string[],
    context: ReconcileContext,
  ): Promise<void> {
    this.#inFlight = undefined;
    context.logger.info(
      {
        method: op.command.method,
        reason: op.command.reason,
        candidates: op.command.candidates,
        replacements,
        why,
      },
      'disruption command abandoned',
    );
    for (const name of replacements) {
      try {
        await this.#deps.cluster.delete(NodeClaims, { name });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    for (const name of op.command.candidates) {
      await this.#setTaint(name, false);
      await this.#publishOnNode(
        name,
        'Normal',
        DisruptionEventReasons.DisruptionAborted,
        `Not disrupted: ${why}`,
      );
    }
    this.#deps.state.unmarkForDeletion(...op.command.candidates, ...op.claims.values());
  }

  /** DisruptionBlocked on each blocked Node and its NodeClaim, when the node's reason changes. */
  async #explain(result: DisruptionResult, snapshot: DisruptionSnapshot): Promise<void> {
    const claims = new Map<string, NodeClaim>();
    for (const c of snapshot.capacity)
      if (c.node !== undefined && c.nodeClaim !== undefined) claims.set(c.node.metadata.name, c.nodeClaim);
    const seen = new Set<string>();
    for (const status of result.nodes) {
      seen.add(status.node);
      if (status.disruptable || status.blockedBy === undefined) {
        this.#blocked.delete(status.node);
        continue;
      }
      if (this.#blocked.get(status.node) === status.blockedBy) continue;
      this.#blocked.set(status.node, status.blockedBy);
      await this.#publishOnNode(
        status.node,
        'Normal',
        DisruptionEventReasons.DisruptionBlocked,
        status.blockedBy,
      );
      const claim = claims.get(status.node);
      if (claim !== undefined)
        await this.#deps.events.publish({
          object: claim,
          type: 'Normal',
          reason: DisruptionEventReasons.DisruptionBlocked,
          message: status.blockedBy,
        });
    }
    for (const name of [...this.#blocked.keys()]) if (!seen.has(name)) this.#blocked.delete(name);
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
   * every change), as polls outnumber changes; nominations and marks are read every time.
   */
  #fingerprint(types: ReadonlyMap<string, readonly InstanceType[]>, context: ReconcileContext): string {
    const { state } = this.#deps;
    const objects = state.objects();
    const rv = (o: { metadata: { uid?: string; name?: string; resourceVersion?: string } }) =>
      `${o.metadata.uid ?? o.metadata.name ?? ''}@${o.metadata.resourceVersion ?? ''}`;
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
        `${part(p, () => `p${rv(p)}:${p.spec.nodeName ?? ''}:${p.status?.phase ?? ''}`)}:${JSON.stringify(nominated ?? '')}`,
      );
    }
    for (const n of objects.nodes) {
      const seen = part(n, () => {
        const ready = (n.status?.conditions ?? []).find((c) => c.type === 'Ready')?.status ?? '';
        return `n${n.metadata.name}:${JSON.stringify([n.spec.taints, n.spec.unschedulable, n.metadata.labels, n.metadata.annotations, n.status?.allocatable])}:${ready}:${n.metadata.deletionTimestamp ?? ''}`;
      });
      parts.push(`${seen}:${state.isMarkedForDeletion(n.metadata.name) ? 'm' : ''}`);
    }
    for (const c of objects.nodeClaims) {
      const name = c.metadata.name ?? '';
      const seen = part(c, () => {
        const conditions = (c.status?.conditions ?? []).map((x) => `${x.type}=${x.status}`).join(',');
        return `c${name}:${conditions}:${JSON.stringify([c.metadata.labels, c.metadata.annotations, c.status?.lastPodEventTime])}:${c.metadata.deletionTimestamp ?? ''}`;
      });
      parts.push(`${seen}:${state.isMarkedForDeletion(name) ? 'm' : ''}`);
    }
    for (const p of objects.nodePools) parts.push(`P${rv(p)}`);
    for (const o of [
      ...(objects.daemonSets ?? []),
      ...(objects.persistentVolumeClaims ?? []),
      ...(objects.persistentVolumes ?? []),
      ...(objects.storageClasses ?? []),
    ])
      parts.push(`o${rv(o)}`);
    for (const pdb of context.cache.list(PodDisruptionBudgets)) parts.push(`b${rv(pdb)}`);
    for (const [pool, list] of types) {
      parts.push(`T${pool}`);
      for (const t of list) parts.push(this.#offeringsPart(t));
    }
    return parts.join('|');
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

  async #setTaint(nodeName: string, on: boolean): Promise<void> {
    let node: Node;
    try {
      node = await this.#deps.cluster.get(Nodes, { name: nodeName });
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const taints = node.spec.taints ?? [];
    const has = taints.some(isDisruptedTaint);
    if (has === on) return;
    const next = on ? [...taints, { ...Taints.Disrupted }] : taints.filter((t) => !isDisruptedTaint(t));
    await this.#deps.cluster.patch(Nodes, { name: nodeName }, asPatch({ spec: { taints: next } }), {
      resourceVersion: node.metadata.resourceVersion ?? '',
    });
  }

  async #publishOnNode(
    nodeName: string,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): Promise<void> {
    const node = this.#deps.state.node(nodeName);
    if (node !== undefined) await this.#deps.events.publish({ object: node, type, reason, message });
  }

  async #find(name: string): Promise<NodeClaim | undefined> {
    try {
      return await this.#deps.cluster.get(NodeClaims, { name });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}
