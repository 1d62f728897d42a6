import type { Node } from '../../apis/kubernetes/node.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { type ConditionUpdate, setCondition } from '../../lifecycle/conditions.js';
import type { ReconcileContext } from '../../operator/runtime/controller.js';

/** What one step of the NodeClaim lifecycle works on during a reconcile. */
export interface ClaimState {
  /** The working copy: steps change its labels, annotations and status; the controller writes them. */
  claim: NodeClaim;
  /** The claim's Node as last read or written in this reconcile (fresher than the cache). */
  node?: Node;
  readonly context: ReconcileContext;
}

/** How a step ended. */
export interface StepOutcome {
  /** Wake up again after this long (the smallest over all steps wins). */
  readonly requeueAfterMs?: number;
  /** Failed; the controller still writes what the steps changed, then retries with backoff. */
  readonly error?: unknown;
  /** The claim was deleted or written by the step itself: write nothing more this round. */
  readonly stop?: boolean;
}

/** A step of the NodeClaim lifecycle (launch, registration, initialization, liveness). */
export interface ClaimStep {
  readonly name: string;
  run(state: ClaimState): Promise<StepOutcome>;
}

/**
 * Sets one condition on a step's working copy (transition time kept when the status is
 * unchanged); the controller writes the status after the steps.
 */
export function setClaimCondition(claim: NodeClaim, update: ConditionUpdate, now: number): void {
  claim.status = { ...claim.status, conditions: setCondition(claim.status?.conditions, update, now) };
}

/**
 * How a step says what it waits for: the returned function sets condition `type` Unknown on
 * the working copy with the given reason and message, and ends the step.
 */
export function waitingFor(
  claim: NodeClaim,
  type: ConditionUpdate['type'],
  now: number,
): (reason: string, message: string) => StepOutcome {
  return (reason, message) => {
    setClaimCondition(claim, { type, status: 'Unknown', reason, message }, now);
    return {};
  };
}
