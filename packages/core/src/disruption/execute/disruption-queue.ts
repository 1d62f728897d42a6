import type { Node } from '../../apis/kubernetes/node.js';
import { Labels, Taints } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { isNotFound } from '../../kube/errors.js';
import { isReschedulable } from '../../kube/pod.js';
import type { ClusterPort } from '../../kube/port.js';
import { NodeClaims, Nodes } from '../../kube/resource-types.js';
import { isConditionTrue } from '../../lifecycle/conditions.js';
import {
  type LifecycleMetrics,
  recordNodeClaimCreated,
  recordNodeClaimDisrupted,
  recordPodsDisruptionInitiated,
} from '../../lifecycle/metrics.js';
import { asPatch } from '../../lifecycle/patch.js';
import { snakeCase } from '../../metrics/snake-case.js';
import type { ReconcileContext, ReconcileResult } from '../../operator/runtime/controller.js';
import type { EventRecorder } from '../../operator/runtime/event-recorder.js';
import { newNodeClaim } from '../../provisioning/new-nodeclaim.js';
import { isTaint, type TaintLike } from '../../scheduling/taints/tolerations.js';
import type { ClusterState } from '../../state/cluster-state.js';
import { DisruptionEventReasons, publishOnNode } from '../controller/events.js';
import { consolidationType, type DisruptionMetrics, reasonLabel } from '../controller/metrics.js';
import type { DisruptionCommand } from '../decide/methods/method.js';
import type { CommandValidation } from '../decide/validation.js';
import { strandedDisruptionTaints } from './stranded-taints.js';

/** What the queue acts through. */
export interface DisruptionQueueDependencies {
  readonly cluster: ClusterPort;
  readonly events: EventRecorder;
  /** Where deletion marks go, and where replacements and candidates are read. */
  readonly state: ClusterState;
  readonly metrics: DisruptionMetrics;
  /** For nodeclaims_created_total{reason=disruption} and nodeclaims_disrupted_total. */
  readonly lifecycleMetrics: LifecycleMetrics;
}

/** The queue's timings; the disruption controller passes its own. */
export interface DisruptionQueueTimings {
  /** The requeue between steps. */
  readonly pollIntervalMs: number;
  /** From a decision to its re-validation. */
  readonly validationDelayMs: number;
  /** How long replacements may take to initialize before the command is rolled back. */
  readonly replacementTimeoutMs: number;
}

/** Re-checks a command against the cluster as it is now; the deciding side provides it. */
export type Revalidate = (command: DisruptionCommand) => Promise<CommandValidation>;

type Phase =
  | { readonly kind: 'validating'; readonly at: number }
  | { readonly kind: 'replacing'; readonly replacements: readonly string[]; readonly deadline: number };

interface InFlight {
  readonly command: DisruptionCommand;
  /** Candidate node name -> its NodeClaim's name. */
  readonly claims: ReadonlyMap<string, string>;
  phase: Phase;
}

/** The `karpenter.sh/disrupted` taint, which the queue owns on its candidates. */
export const isDisruptedTaint = (t: TaintLike): boolean => isTaint(t, Taints.Disrupted);

/**
 * Executes one decided disruption command at a time (Karpenter's orchestration queue): `start`
 * taints the candidates `karpenter.sh/disrupted:NoSchedule` and marks them for deletion in
 * state; after the validation delay `step` re-validates (through the caller's `Revalidate`),
 * creates the replacement NodeClaims, waits until every replacement is Initialized, then
 * deletes the candidates' NodeClaims (the termination controllers drain and terminate). A
 * failed validation, a replacement that disappears or does not initialize in time rolls the
 * command back: replacements deleted, taints removed, marks cleared, `DisruptionAborted` with
 * the reason on each candidate.
 */
export class DisruptionQueue {
  readonly #deps: DisruptionQueueDependencies;
  readonly #timings: DisruptionQueueTimings;
  #inFlight: InFlight | undefined;

  constructor(deps: DisruptionQueueDependencies, timings: DisruptionQueueTimings) {
    this.#deps = deps;
    this.#timings = timings;
  }

  /** Whether a command is in flight; the controller decides nothing new while it is. */
  get busy(): boolean {
    return this.#inFlight !== undefined;
  }

  /** Whether `claimName` is a replacement the in-flight command is waiting for. */
  awaits(claimName: string): boolean {
    const phase = this.#inFlight?.phase;
    return phase?.kind === 'replacing' && phase.replacements.includes(claimName);
  }

  /** Whether the command in flight holds `nodeName` as a candidate (its taint is ours). */
  holds(nodeName: string): boolean {
    return this.#inFlight?.command.candidates.includes(nodeName) ?? false;
  }

  /**
   * Removes the `karpenter.sh/disrupted` taint from every node no command owns any more
   * (`strandedDisruptionTaints`: left by a controller that crashed or lost its Lease mid-command),
   * so those nodes become candidates again. Returns their names.
   */
  async releaseStranded(context: ReconcileContext): Promise<string[]> {
    const { state } = this.#deps;
    const stranded = strandedDisruptionTaints({
      nodes: state.nodes(),
      nodeClaims: state.nodeClaims(),
      held: (name) => this.holds(name),
      marked: (name) => state.isMarkedForDeletion(name),
    });
    for (const name of stranded) {
      await this.#setTaint(name, false);
      context.logger.info(
        { node: name, why: 'no disruption command in flight holds the node' },
        'removed a stranded karpenter.sh/disrupted taint',
      );
    }
    return stranded;
  }

  /** Takes a decided command: marks and taints its candidates; validation comes after the delay. */
  async start(
    command: DisruptionCommand,
    claims: ReadonlyMap<string, string>,
    now: number,
    context: ReconcileContext,
  ): Promise<ReconcileResult> {
    this.#inFlight = {
      command,
      claims,
      phase: { kind: 'validating', at: now + this.#timings.validationDelayMs },
    };
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
    return { requeueAfterMs: this.#timings.validationDelayMs };
  }

  /** Moves the in-flight command on by one step; call only while `busy`. */
  async step(now: number, context: ReconcileContext, revalidate: Revalidate): Promise<ReconcileResult> {
    const op = this.#inFlight;
    if (op === undefined) return { requeueAfterMs: this.#timings.pollIntervalMs };
    if (op.phase.kind === 'validating') {
      if (now < op.phase.at) return { requeueAfterMs: op.phase.at - now };
      return this.#validate(op, now, context, revalidate);
    }
    return this.#awaitReplacements(op, op.phase, now, context);
  }

  async #validate(
    op: InFlight,
    now: number,
    context: ReconcileContext,
    revalidate: Revalidate,
  ): Promise<ReconcileResult> {
    const poll = this.#timings.pollIntervalMs;
    const check = await revalidate(op.command);
    if (!check.valid) {
      this.#deps.metrics.failedValidations.inc(
        { consolidation_type: consolidationType(op.command.method) },
        op.command.candidates.length,
      );
      await this.#rollback(op, `validation failed: ${check.reason}`, [], context);
      return { requeueAfterMs: poll };
    }
    const { command } = op;
    const decision = decisionLabels(command);
    this.#deps.metrics.decisions.inc(decision);
    const pools = new Set(
      command.candidates.map((name) => this.#deps.state.node(name)?.metadata.labels?.[Labels.NodePool] ?? ''),
    );
    for (const nodepool of pools) this.#deps.metrics.decisionsByNodePool.inc({ ...decision, nodepool });
    if (command.replacements.length === 0) return this.#terminate(op, context);
    const names: string[] = [];
    for (const replacement of command.replacements) {
      const pool = this.#deps.state.nodePool(replacement.nodePool);
      if (pool === undefined) {
        await this.#rollback(op, `NodePool ${replacement.nodePool} is gone`, names, context);
        return { requeueAfterMs: poll };
      }
      const built = newNodeClaim(pool, replacement);
      if (!built.ok) {
        await this.#rollback(op, `replacement NodeClaim is invalid: ${built.reason}`, names, context);
        return { requeueAfterMs: poll };
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
    op.phase = { kind: 'replacing', replacements: names, deadline: now + this.#timings.replacementTimeoutMs };
    return { requeueAfterMs: poll };
  }

  async #awaitReplacements(
    op: InFlight,
    phase: Extract<Phase, { kind: 'replacing' }>,
    now: number,
    context: ReconcileContext,
  ): Promise<ReconcileResult> {
    const poll = this.#timings.pollIntervalMs;
    let ready = true;
    const pending: string[] = [];
    for (const name of phase.replacements) {
      const claim = this.#deps.state.nodeClaim(name) ?? (await this.#find(name));
      if (claim === undefined || claim.metadata.deletionTimestamp !== undefined) {
        this.#countFailedLaunches(op, phase.replacements);
        await this.#rollback(
          op,
          `replacement NodeClaim ${name} was deleted before it initialized`,
          phase.replacements,
          context,
        );
        return { requeueAfterMs: poll };
      }
      if (!isConditionTrue(claim.status?.conditions, 'Initialized')) {
        ready = false;
        pending.push(name);
      }
    }
    if (!ready) {
      if (now >= phase.deadline) {
        this.#countFailedLaunches(op, pending);
        await this.#rollback(op, 'replacements did not initialize in time', phase.replacements, context);
        return { requeueAfterMs: poll };
      }
      return { requeueAfterMs: Math.min(poll, phase.deadline - now) };
    }
    return this.#terminate(op, context);
  }

  /** `karpenter_voluntary_disruption_queue_failures_total`: the replacements that never initialized. */
  #countFailedLaunches(op: InFlight, uninitialized: readonly string[]): void {
    const failed = uninitialized.filter(
      (name) => !isConditionTrue(this.#deps.state.nodeClaim(name)?.status?.conditions, 'Initialized'),
    );
    if (failed.length > 0) this.#deps.metrics.queueFailures.inc(decisionLabels(op.command), failed.length);
  }

  async #terminate(op: InFlight, context: ReconcileContext): Promise<ReconcileResult> {
    const { command } = op;
    const consolidating = consolidationType(command.method) !== '';
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
        const pool = this.#deps.state.nodePool(claim.metadata.labels?.[Labels.NodePool] ?? '');
        // Drift also comes through here; only consolidation reports a policy.
        const policy = consolidating ? snakeCase(pool?.spec.disruption?.consolidationPolicy ?? '') : '';
        recordNodeClaimDisrupted(this.#deps.lifecycleMetrics, claim, reasonLabel(command.reason), policy);
        recordPodsDisruptionInitiated(
          this.#deps.lifecycleMetrics,
          claim,
          reasonLabel(command.reason),
          this.#deps.state.podsOn(node).filter(isReschedulable).length,
          policy,
        );
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    context.logger.info({ method: command.method, candidates: command.candidates }, 'disrupted nodes');
    this.#inFlight = undefined;
    return { requeueAfterMs: this.#timings.pollIntervalMs };
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

  #publishOnNode(nodeName: string, type: 'Normal' | 'Warning', reason: string, message: string) {
    return publishOnNode(this.#deps, nodeName, type, reason, message);
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

/** A command's labels on the decision metrics. */
function decisionLabels(command: DisruptionCommand): {
  decision: string;
  reason: string;
  consolidation_type: string;
} {
  return {
    decision: command.replacements.length > 0 ? 'replace' : 'delete',
    reason: reasonLabel(command.reason),
    consolidation_type: consolidationType(command.method),
  };
}
