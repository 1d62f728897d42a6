import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { ignoreNotFound } from '../../kube/errors.js';
import { keyOf, parseTime } from '../../kube/object.js';
import { NodeClaims } from '../../kube/resource-types.js';
import { ConditionTypes, getCondition, isConditionTrue } from '../../lifecycle/conditions.js';
import type { LifecycleDependencies } from '../../lifecycle/dependencies.js';
import { EventReasons } from '../../lifecycle/events.js';
import { DisruptionReasons, recordNodeClaimDisrupted } from '../../lifecycle/metrics.js';
import { objectRef } from '../../operator/runtime/logger.js';
import type { ClaimState, ClaimStep, StepOutcome } from './claim-step.js';

/**
 * How long a claim may take to launch and to register, from its creation (Karpenter: 5 and 15
 * min), and to initialize once registered (a Node that joined but never became Ready, kept its
 * startup taints or never reported its resources would otherwise hold its pods forever).
 */
export interface LivenessTimeouts {
  readonly launchMs: number;
  readonly registrationMs: number;
  /** From the Registered condition's transition; default 15 min. */
  readonly initializationMs: number;
}

export const DefaultLivenessTimeouts: LivenessTimeouts = {
  launchMs: 5 * 60_000,
  registrationMs: 15 * 60_000,
  initializationMs: 15 * 60_000,
};

/** Whether a claim is still within its deadlines. */
export type LivenessVerdict =
  | {
      readonly kind: 'alive' /** Check again then (ms from now), if a deadline is pending. */;
      readonly recheckInMs?: number;
    }
  | {
      readonly kind: 'timedOut';
      readonly reason:
        | typeof DisruptionReasons.LaunchTimeout
        | typeof DisruptionReasons.RegistrationTimeout
        | typeof DisruptionReasons.InitializationTimeout;
      readonly timeoutMs: number;
    };

/**
 * An initialized claim is alive. A registered, uninitialized one times out `initializationMs`
 * after it registered. Otherwise an unlaunched claim times out `launchMs` after creation and a
 * launched, unregistered one `registrationMs` after creation (measured from creation, not from
 * the launch, so slow launches do not extend the registration window).
 */
export function livenessVerdict(
  claim: Pick<NodeClaim, 'metadata' | 'status'>,
  now: number,
  timeouts: LivenessTimeouts = DefaultLivenessTimeouts,
): LivenessVerdict {
  const conditions = claim.status?.conditions;
  if (isConditionTrue(conditions, ConditionTypes.Initialized)) return { kind: 'alive' };
  const registered = getCondition(conditions, ConditionTypes.Registered);
  if (registered?.status === 'True') {
    // Without a transition time there is nothing to measure from; the next write will set one.
    if (registered.lastTransitionTime === undefined) return { kind: 'alive' };
    const deadline = parseTime(registered.lastTransitionTime) + timeouts.initializationMs;
    if (now < deadline) return { kind: 'alive', recheckInMs: deadline - now };
    return {
      kind: 'timedOut',
      reason: DisruptionReasons.InitializationTimeout,
      timeoutMs: timeouts.initializationMs,
    };
  }
  const created = claim.metadata.creationTimestamp;
  if (created === undefined) return { kind: 'alive' };
  const launched = isConditionTrue(conditions, ConditionTypes.Launched);
  const timeoutMs = launched ? timeouts.registrationMs : timeouts.launchMs;
  const deadline = parseTime(created) + timeoutMs;
  if (now < deadline) return { kind: 'alive', recheckInMs: deadline - now };
  return {
    kind: 'timedOut',
    reason: launched ? DisruptionReasons.RegistrationTimeout : DisruptionReasons.LaunchTimeout,
    timeoutMs,
  };
}

/** Liveness: deletes a claim that did not launch or register in time, so its pods are scheduled again. */
export class LivenessStep implements ClaimStep {
  readonly name = 'liveness';
  readonly #deps: LifecycleDependencies;
  readonly #timeouts: LivenessTimeouts;

  constructor(deps: LifecycleDependencies, timeouts: LivenessTimeouts = DefaultLivenessTimeouts) {
    this.#deps = deps;
    this.#timeouts = timeouts;
  }

  async run(state: ClaimState): Promise<StepOutcome> {
    const claim = state.claim;
    const verdict = livenessVerdict(claim, this.#deps.clock.now(), this.#timeouts);
    if (verdict.kind === 'alive') {
      return verdict.recheckInMs === undefined ? {} : { requeueAfterMs: verdict.recheckInMs };
    }
    const what = {
      [DisruptionReasons.LaunchTimeout]: 'launch within',
      [DisruptionReasons.RegistrationTimeout]: 'register within',
      [DisruptionReasons.InitializationTimeout]: 'initialize within',
    }[verdict.reason];
    const since = verdict.reason === DisruptionReasons.InitializationTimeout ? 'registering' : 'creation';
    try {
      await this.#deps.cluster.delete(NodeClaims, keyOf(claim));
    } catch (err) {
      ignoreNotFound(err);
      return { stop: true };
    }
    recordNodeClaimDisrupted(this.#deps.metrics, claim, verdict.reason);
    await this.#deps.events.publish({
      object: claim,
      type: 'Warning',
      reason: EventReasons.LivenessTimeout,
      message: `NodeClaim did not ${what} ${verdict.timeoutMs / 60_000}m of ${since}; deleting it`,
    });
    state.context.logger.info(
      { NodeClaim: objectRef(claim), reason: verdict.reason, timeout: `${verdict.timeoutMs / 1000}s` },
      'terminating due to timeout',
    );
    // Steps before this one may have changed status (e.g. Launched=Unknown); the controller still writes it.
    return {};
  }
}
