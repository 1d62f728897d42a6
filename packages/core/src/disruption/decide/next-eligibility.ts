import { durationMs } from '../../apis/common/duration.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import { DISRUPTED_POD_TIMEOUT_MS } from '../../kube/disruption-budget.js';
import { parseTime } from '../../kube/object.js';
import { type CronSchedule, latestCronHit, parseCronSchedule } from './budgets/cron-schedule.js';
import { managedNodes } from './candidates/managed-node.js';
import { type NodeFacts, nodeFacts } from './candidates/node-facts.js';
import type { DisruptionSnapshot } from './snapshot.js';

const MINUTE_MS = 60_000;
/** How far ahead a budget schedule is searched: four years and a day covers `29 2` schedules. */
const CronHorizonMs = (4 * 366 + 1) * 24 * 60 * MINUTE_MS;

/**
 * The first instant strictly after `after` at which the schedule fires (whole UTC minutes), if
 * it fires within `horizonMs`. A binary search over `latestCronHit`, so it inherits its
 * month/day/hour skipping: about 22 probes for a four-year horizon.
 */
export function nextCronHit(
  schedule: CronSchedule,
  after: number,
  horizonMs: number = CronHorizonMs,
): number | undefined {
  // Minute indices: no hit lies in (after, lo * MIN]; one lies in (after, hi * MIN].
  let lo = Math.floor(after / MINUTE_MS);
  let hi = Math.floor((after + horizonMs) / MINUTE_MS);
  if (hi <= lo || latestCronHit(schedule, after, hi * MINUTE_MS) === undefined) return undefined;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (latestCronHit(schedule, after, mid * MINUTE_MS) === undefined) lo = mid;
    else hi = mid;
  }
  return hi * MINUTE_MS;
}

/**
 * When the node's NodePool's consolidateAfter (`afterMs`) has passed — `evaluateNodes`' rule
 * (see nodeFacts). Undefined when consolidation is off (`Never`) or the time is unknown.
 */
function consolidatableAt(facts: NodeFacts, afterMs: number): number | undefined {
  if (!Number.isFinite(afterMs)) return undefined;
  return Number.isFinite(facts.since) ? facts.since + afterMs : undefined;
}

/**
 * The next instants a budget's activity can change after `now`: its next cron hit (a window
 * opens or is extended) and, while a window is open, the latest hit plus the duration (it
 * closes unless a hit in between extends it — then the next hit is the earlier edge anyway).
 * Budgets without a schedule, or misconfigured ones, never change with time.
 */
function budgetEdges(pool: NodePool, now: number, push: (t: number | undefined) => void): void {
  for (const budget of pool.spec.disruption.budgets) {
    if (budget.schedule === undefined || budget.duration === undefined) continue;
    const parsed = parseCronSchedule(budget.schedule);
    const d = durationMs(budget.duration);
    if (!parsed.ok || d === undefined || !Number.isFinite(d)) continue;
    const next = nextCronHit(parsed.schedule, now);
    // A schedule that never fires within the horizon is looked at again at its end.
    push(next ?? now + CronHorizonMs);
    const last = latestCronHit(parsed.schedule, now - d, now);
    if (last !== undefined) push(last + d);
  }
}

/**
 * The earliest instant after `now` at which a disruption pass over this snapshot could decide
 * differently with nothing but time moving (pure): a managed node's consolidateAfter expiring, a
 * pod's do-not-disrupt duration ending, a PDB's disrupted-pod entry timing out (2 min, as
 * kube-controller-manager), a budget window opening or closing. Undefined when no rule depends
 * on time. The controller skips passes until then while nothing it reads changes.
 *
 * Not covered: the disruption cost's remaining-lifetime factor shifts continuously and can
 * reorder candidates of equal price; the controller's cap on skipping (`idleSkipMs`) bounds that.
 */
export function nextEligibilityInstant(snapshot: DisruptionSnapshot, now: number): number | undefined {
  let best = Number.POSITIVE_INFINITY;
  const push = (t: number | undefined) => {
    if (t !== undefined && t > now && t < best) best = t;
  };
  const pools = new Map(
    snapshot.nodePools.map((p) => [
      p.metadata.name ?? '',
      { pool: p, afterMs: durationMs(p.spec.disruption.consolidateAfter) ?? 0 },
    ]),
  );
  const memo = snapshot.nodeFacts;
  for (const node of managedNodes(snapshot.capacity, snapshot.markedForDeletion, snapshot.managedNodes)) {
    const rules = pools.get(node.nodePool);
    if (rules === undefined) continue;
    const facts = memo === undefined ? nodeFacts(node, rules.pool) : memo.facts(node, rules.pool);
    push(consolidatableAt(facts, rules.afterMs));
    // "true" and durations without a creation time protect for good (until Infinity): no edge.
    for (const { rule } of facts.protectedPods) push(rule.until);
  }
  for (const pdb of snapshot.podDisruptionBudgets) {
    for (const approvedAt of Object.values(pdb.status?.disruptedPods ?? {})) {
      const t = parseTime(approvedAt);
      if (Number.isFinite(t)) push(t + DISRUPTED_POD_TIMEOUT_MS);
    }
  }
  for (const pool of snapshot.nodePools) budgetEdges(pool, now, push);
  return Number.isFinite(best) ? best : undefined;
}
