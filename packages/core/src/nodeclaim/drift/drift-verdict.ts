import type { Condition } from '../../apis/common/condition.js';
import { Labels } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import { ConditionTypes, getCondition, isConditionTrue, setCondition } from '../../lifecycle/conditions.js';
import { type DriftBasis, driftLabels, staticDrift } from './static-drift.js';

/**
 * The reason used when a provider's drift reason is not a valid condition reason
 * (`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`); the provider's text goes to the message.
 */
export const CloudProviderDriftedReason = 'CloudProviderDrifted';

const ReasonPattern = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;

/** What the drift check decided for one NodeClaim. */
export type DriftVerdict =
  | { readonly drifted: true; readonly reason: string; readonly message: string }
  | { readonly drifted: false; readonly why: string };

/**
 * The claim's NodePool as the controller found it: parsed (with the drift basis derived from it,
 * when the finder keeps one per stored version), or why it cannot be used.
 */
export type NodePoolLookup =
  | { readonly nodePool: NodePool; readonly basis?: DriftBasis }
  | { readonly problem: string };

/** What the check before the cloud provider needs: the claim, its Node's labels, its NodePool. */
export interface DriftInput {
  readonly claim: Pick<NodeClaim, 'metadata' | 'status'>;
  /** Labels of the claim's Node, when it has registered. */
  readonly nodeLabels: Readonly<Record<string, string>> | undefined;
  readonly pool: NodePoolLookup;
}

/**
 * The verdict core can reach alone, or `'ask-cloud-provider'` when only the provider can tell
 * (static drift first, as upstream, to spare provider calls):
 * - not drifted when the claim is not Launched (nothing to compare yet), has no NodePool label,
 *   or its NodePool is missing or invalid;
 * - drifted with staticDrift's reason (NodePoolDrifted, RequirementsDrifted) and message.
 */
export function driftBeforeCloudProvider(input: DriftInput): DriftVerdict | 'ask-cloud-provider' {
  const { claim, pool } = input;
  if (!isConditionTrue(claim.status?.conditions, ConditionTypes.Launched))
    return { drifted: false, why: 'NodeClaim is not launched yet' };
  if (claim.metadata.labels?.[Labels.NodePool] === undefined)
    return { drifted: false, why: `NodeClaim has no ${Labels.NodePool} label` };
  if ('problem' in pool) return { drifted: false, why: pool.problem };
  const found = staticDrift(
    claim.metadata.annotations,
    driftLabels(claim.metadata.labels, input.nodeLabels),
    pool.nodePool,
    pool.basis,
  );
  if (found !== undefined) return { drifted: true, reason: found.reason, message: found.message };
  return 'ask-cloud-provider';
}

/** The verdict from `CloudProvider.isDrifted`'s answer (undefined or empty: not drifted). */
export function cloudProviderVerdict(provider: string, reason: string | undefined): DriftVerdict {
  if (reason === undefined || reason === '')
    return { drifted: false, why: `neither the NodePool nor cloud provider ${provider} reports drift` };
  const message = `cloud provider ${provider} reports drift: ${reason}`;
  return ReasonPattern.test(reason) && reason.length <= 1024
    ? { drifted: true, reason, message }
    : { drifted: true, reason: CloudProviderDriftedReason, message };
}

/**
 * The claim's conditions after `verdict`: `Drifted=True` with its reason and message (the
 * transition time kept while it stays True), or no `Drifted` condition at all when not drifted
 * (as upstream clears it). Undefined when nothing changes, so a reconcile writes only changes.
 */
export function conditionsAfter(
  conditions: readonly Condition[] | undefined,
  verdict: DriftVerdict,
  now: number,
): Condition[] | undefined {
  const existing = getCondition(conditions, ConditionTypes.Drifted);
  if (!verdict.drifted) {
    if (existing === undefined) return undefined;
    return (conditions ?? []).filter((c) => c.type !== ConditionTypes.Drifted);
  }
  if (
    existing?.status === 'True' &&
    existing.reason === verdict.reason &&
    existing.message === verdict.message
  )
    return undefined;
  return setCondition(
    conditions,
    { type: ConditionTypes.Drifted, status: 'True', reason: verdict.reason, message: verdict.message },
    now,
  );
}
