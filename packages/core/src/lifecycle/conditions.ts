import type { Condition } from '../apis/common/condition.js';
import { formatTime } from '../kube/object.js';

/** Condition types on NodeClaims and NodePools, as Karpenter names them. */
export const ConditionTypes = {
  Launched: 'Launched',
  Registered: 'Registered',
  Initialized: 'Initialized',
  Ready: 'Ready',
  Drained: 'Drained',
  VolumesDetached: 'VolumesDetached',
  InstanceTerminating: 'InstanceTerminating',
  /** Set by `nodeclaim.disruption` while the claim no longer matches its NodePool or NodeClass. */
  Drifted: 'Drifted',
  ValidationSucceeded: 'ValidationSucceeded',
  NodeClassReady: 'NodeClassReady',
} as const;

export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** A condition to set; reason defaults to the type when True, `AwaitingReconciliation` otherwise. */
export interface ConditionUpdate {
  readonly type: string;
  readonly status: ConditionStatus;
  readonly reason?: string;
  readonly message?: string;
}

/** The condition of `type`, if present. */
export function getCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isConditionTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return getCondition(conditions, type)?.status === 'True';
}

/**
 * `conditions` with `update` applied (a new array; the input is not changed). The transition
 * time moves only when the status changes, as metav1 conditions require; reason and message
 * follow the update.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  update: ConditionUpdate,
  now: number,
  observedGeneration?: number,
): Condition[] {
  const existing = getCondition(conditions, update.type);
  const reason = update.reason ?? (update.status === 'True' ? update.type : 'AwaitingReconciliation');
  const next: Condition = {
    type: update.type,
    status: update.status,
    reason,
    message: update.message ?? '',
    lastTransitionTime:
      existing !== undefined && existing.status === update.status
        ? existing.lastTransitionTime
        : formatTime(now),
    ...(observedGeneration === undefined ? {} : { observedGeneration }),
  };
  const out = (conditions ?? []).filter((c) => c.type !== update.type);
  out.push(next);
  out.sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
  return out;
}

/**
 * A root condition (Ready) over its dependents: True when all are True; otherwise False when any
 * is False, else Unknown, with reason `UnhealthyDependents` and a message naming them.
 */
export function rootCondition(
  type: string,
  conditions: readonly Condition[] | undefined,
  dependents: readonly string[],
): ConditionUpdate {
  const states = dependents.map((d) => ({
    type: d,
    status: getCondition(conditions, d)?.status ?? 'Unknown',
  }));
  const unhealthy = states.filter((s) => s.status !== 'True');
  if (unhealthy.length === 0) return { type, status: 'True' };
  return {
    type,
    status: unhealthy.some((s) => s.status === 'False') ? 'False' : 'Unknown',
    reason: 'UnhealthyDependents',
    message: unhealthy.map((s) => `${s.type}=${s.status}`).join(', '),
  };
}
