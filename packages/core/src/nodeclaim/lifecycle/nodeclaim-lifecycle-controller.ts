import { Finalizers } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { BackoffPolicy } from '../../clock/backoff.js';
import { isNotFound } from '../../kube/errors.js';
import type { ObjectKey } from '../../kube/object.js';
import { NodeClaims, Nodes } from '../../kube/resource-types.js';
import { ConditionTypes, rootCondition } from '../../lifecycle/conditions.js';
import type { LifecycleDependencies } from '../../lifecycle/dependencies.js';
import { changedBeyondStatus, claimKeysForNode, isManaged } from '../../lifecycle/lookup.js';
import {
  type Controller,
  type ReconcileContext,
  type ReconcileResult,
  watchMapped,
  watchSelf,
} from '../../operator/runtime/controller.js';
import { NodeClaimTermination } from '../termination/nodeclaim-termination.js';
import { type ClaimState, type ClaimStep, setClaimCondition } from './claim-step.js';
import { InitializationStep } from './initialization.js';
import { LaunchStep } from './launch.js';
import { DefaultLivenessTimeouts, LivenessStep, type LivenessTimeouts } from './liveness.js';
import { RegistrationStep } from './registration.js';
import { transitionEvents } from './transition-events.js';

/** Options of the NodeClaim lifecycle controller. */
export interface NodeClaimLifecycleOptions {
  readonly liveness?: LivenessTimeouts;
  /** Karpenter retries lifecycle errors from 1 s up to 1 min. */
  readonly backoff?: BackoffPolicy;
  /**
   * Default 1000. A launch waits on a cloud call that can take minutes; with few workers, a
   * handful of slow launches would hold every other launch and every claim's termination
   * (the same controller) behind them.
   */
  readonly maxConcurrentReconciles?: number;
}

const LifecycleBackoff: BackoffPolicy = { baseMs: 1_000, maxMs: 60_000 };

const json = (v: unknown) => JSON.stringify(v ?? null);

/**
 * `nodeclaim.lifecycle`: takes a NodeClaim from creation to Ready — termination finalizer, launch,
 * registration, initialization, liveness, in that order each reconcile — and, once it is being
 * deleted, through its finalizer (NodeClaimTermination). One controller for both so that a
 * claim's launch and its termination can never run at the same time. Watches NodeClaims and
 * Nodes (mapped to their claim by owner reference or providerID).
 */
export class NodeClaimLifecycleController implements Controller {
  readonly name = 'nodeclaim.lifecycle';
  readonly watches;
  readonly backoff: BackoffPolicy;
  readonly maxConcurrentReconciles: number;
  readonly #deps: LifecycleDependencies;
  readonly #steps: readonly ClaimStep[];
  readonly #termination: NodeClaimTermination;

  constructor(deps: LifecycleDependencies, options: NodeClaimLifecycleOptions = {}) {
    this.#deps = deps;
    this.backoff = options.backoff ?? LifecycleBackoff;
    this.maxConcurrentReconciles = options.maxConcurrentReconciles ?? 1000;
    this.#steps = [
      new LaunchStep(deps),
      new RegistrationStep(deps),
      new InitializationStep(deps),
      new LivenessStep(deps, options.liveness ?? DefaultLivenessTimeouts),
    ];
    this.#termination = new NodeClaimTermination(deps);
    this.watches = [
      watchSelf(NodeClaims, changedBeyondStatus),
      watchMapped(Nodes, (node, cache) => claimKeysForNode(node, cache)),
    ];
  }

  async reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const { cluster, cloudProvider } = this.#deps;
    let claim: NodeClaim;
    try {
      claim = await cluster.get(NodeClaims, key);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    if (!isManaged(claim, cloudProvider)) return undefined;
    if (claim.metadata.deletionTimestamp !== undefined) return this.#termination.finalize(claim, context);

    // No launch before the finalizer is in place, or a deletion could leak the instance.
    // The finalizer's own watch event brings the claim back for the launch, so a failing launch
    // is retried on its backoff rather than at once.
    if (!(claim.metadata.finalizers ?? []).includes(Finalizers.Termination)) {
      await cluster.patch(
        NodeClaims,
        key,
        { metadata: { finalizers: [...(claim.metadata.finalizers ?? []), Finalizers.Termination] } },
        { resourceVersion: claim.metadata.resourceVersion ?? '' },
      );
      return undefined;
    }

    const state: ClaimState = { claim: structuredClone(claim), context };
    const errors: unknown[] = [];
    let requeueAfterMs: number | undefined;
    for (const step of this.#steps) {
      const outcome = await step.run(state);
      if (outcome.stop === true) return undefined;
      if (outcome.error !== undefined) errors.push(outcome.error);
      if (outcome.requeueAfterMs !== undefined) {
        requeueAfterMs = Math.min(requeueAfterMs ?? Number.POSITIVE_INFINITY, outcome.requeueAfterMs);
      }
    }
    const next = state.claim;
    setClaimCondition(
      next,
      rootCondition(ConditionTypes.Ready, next.status?.conditions, [
        ConditionTypes.Launched,
        ConditionTypes.Registered,
        ConditionTypes.Initialized,
      ]),
      this.#deps.clock.now(),
    );
    const written = await this.#write(claim, next);
    // After the write, so a failed write (retried) does not announce a step twice.
    for (const event of transitionEvents(claim, written)) await this.#deps.events.publish(event);
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, errors.map(String).join('; '));
    return requeueAfterMs === undefined ? undefined : { requeueAfterMs };
  }

  /**
   * Writes metadata, then status, each only when changed; status last so providerID lands with
   * Launched. Returns the claim as stored after the writes.
   */
  async #write(stored: NodeClaim, next: NodeClaim): Promise<NodeClaim> {
    const { cluster } = this.#deps;
    const key = { name: stored.metadata.name ?? '' };
    let current = stored;
    const labelsChanged = json(stored.metadata.labels) !== json(next.metadata.labels);
    const annotationsChanged = json(stored.metadata.annotations) !== json(next.metadata.annotations);
    if (labelsChanged || annotationsChanged) {
      current = await cluster.patch(NodeClaims, key, {
        metadata: {
          ...(labelsChanged ? { labels: next.metadata.labels ?? {} } : {}),
          ...(annotationsChanged ? { annotations: next.metadata.annotations ?? {} } : {}),
        },
      });
    }
    if (json(stored.status) !== json(next.status)) {
      current = await cluster.updateStatus(NodeClaims, { ...current, status: next.status });
    }
    return current;
  }
}
