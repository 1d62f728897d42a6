import { durationMs } from '../../../apis/common/duration.js';
import type { Budget, DisruptionReason } from '../../../apis/v1/budget.js';
import type { NodePool } from '../../../apis/v1/nodepool.js';
import { latestCronHit, parseCronSchedule } from './cron-schedule.js';

/** What an inactive budget (or no budget at all) allows: Karpenter's MaxInt32. */
export const UnlimitedDisruptions = 2_147_483_647;

/** Whether a budget applies now; `error` when it is misconfigured (and then allows nothing). */
export type BudgetActivity =
  | { readonly active: boolean; readonly error?: undefined }
  | { readonly error: string };

/**
 * Whether a budget is in force at `now` (ms): always without schedule and duration; with both,
 * while the latest cron hit (UTC) lies within the last `duration` — precisely, when some hit h
 * has now - duration < h <= now, as Karpenter asks "is the next hit after now - duration not
 * after now". Only one of the two set, an unparsable schedule or duration: misconfigured.
 */
export function budgetActivity(budget: Pick<Budget, 'schedule' | 'duration'>, now: number): BudgetActivity {
  if (budget.schedule === undefined && budget.duration === undefined) return { active: true };
  if (budget.schedule === undefined) return { error: 'duration is set without a schedule' };
  if (budget.duration === undefined) return { error: 'schedule is set without a duration' };
  const parsed = parseCronSchedule(budget.schedule);
  if (!parsed.ok) return { error: parsed.reason };
  const ms = durationMs(budget.duration);
  if (ms === undefined || !Number.isFinite(ms))
    return { error: `duration ${JSON.stringify(budget.duration)} is invalid` };
  return { active: latestCronHit(parsed.schedule, now - ms, now) !== undefined };
}

/** One budget's allowance for a NodePool of `nodeCount` nodes. */
export interface BudgetAllowance {
  readonly allowed: number;
  readonly active: boolean;
  /** Set when the budget is misconfigured: it then allows 0 (fails closed, as upstream). */
  readonly error?: string;
}

/**
 * How many nodes one budget lets be disrupted at once: unlimited while inactive; a count as
 * given; a percentage of `nodeCount` rounded up (10% of 5 nodes is 1); 0 when misconfigured.
 */
export function budgetAllowance(budget: Budget, nodeCount: number, now: number): BudgetAllowance {
  const activity = budgetActivity(budget, now);
  if (activity.error !== undefined) return { allowed: 0, active: false, error: activity.error };
  if (!activity.active) return { allowed: UnlimitedDisruptions, active: false };
  const nodes = budget.nodes;
  const percent = /^([0-9]+)%$/.exec(nodes);
  if (percent !== null) {
    const p = Number(percent[1]);
    if (p > 100) return { allowed: 0, active: true, error: `nodes ${nodes} is more than 100%` };
    return { allowed: Math.ceil((p * nodeCount) / 100), active: true };
  }
  if (/^[0-9]+$/.test(nodes)) return { allowed: Number(nodes), active: true };
  return {
    allowed: 0,
    active: true,
    error: `nodes ${JSON.stringify(nodes)} is neither a count nor a percentage`,
  };
}

/** A NodePool's allowance for one reason, and which budget set it. */
export interface ReasonAllowance {
  /** The minimum over the budgets that limit this reason (UnlimitedDisruptions if none). */
  readonly allowed: number;
  /** Index in `spec.disruption.budgets` of the budget that set `allowed`, if one did. */
  readonly budget?: number;
  /** Misconfigured budgets, whatever their reasons (they are reported, as upstream logs them). */
  readonly errors: readonly string[];
}

/** Whether a budget limits disruptions for `reason`: it names no reasons, or names this one. */
function budgetLimits(budget: Pick<Budget, 'reasons'>, reason: DisruptionReason): boolean {
  return budget.reasons === undefined || budget.reasons.includes(reason);
}

/**
 * Karpenter's allowed disruptions of a NodePool for a reason: the minimum over its budgets that
 * limit that reason, each evaluated at `now` against `nodeCount` nodes.
 */
export function allowedDisruptions(
  nodePool: Pick<NodePool, 'spec'>,
  nodeCount: number,
  reason: DisruptionReason,
  now: number,
): ReasonAllowance {
  let allowed = UnlimitedDisruptions;
  let binding: number | undefined;
  const errors: string[] = [];
  for (const [i, budget] of nodePool.spec.disruption.budgets.entries()) {
    const a = budgetAllowance(budget, nodeCount, now);
    if (a.error !== undefined) errors.push(`budgets[${i}]: ${a.error}`);
    if (budgetLimits(budget, reason) && a.allowed < allowed) {
      allowed = a.allowed;
      binding = i;
    }
  }
  return binding === undefined ? { allowed, errors } : { allowed, budget: binding, errors };
}
