import { durationMs } from '../../apis/common/duration.js';
import { Annotations } from '../../apis/labels.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import { DISRUPTED_POD_TIMEOUT_MS } from '../../kube/disruption-budget.js';
import { parseTime } from '../../kube/object.js';
import { isPodActive } from '../../kube/pod.js';
import { podCreationMillis } from '../../scheduling/pod/identity.js';
import { type CronSchedule, latestCronHit, parseCronSchedule } from './budgets/cron-schedule.js';
import { type ManagedNode, managedNodes } from './candidates/managed-node.js';
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
 * When the node's NodePool's consolidateAfter has passed — `evaluateNodes`' rule: after
 * `NodeClaim.status.lastPodEventTime` where given, else after the later of the node's creation and
 * its newest active pod's. Undefined when consolidation is off (`Never`) or the time is unknown.
 */
function consolidatableAt(node: ManagedNode, pool: NodePool): number | undefined {
  const ms = durationMs(pool.spec.disruption.consolidateAfter) ?? 0;
  if (!Number.isFinite(ms)) return undefined;
  const lastEvent = node.nodeClaim?.status?.lastPodEventTime;
  let since: number;
  if (lastEvent !== undefined) since = Date.parse(lastEvent);
  else {
    since = Date.parse(
      node.node.metadata.creationTimestamp ?? node.nodeClaim?.metadata.creationTimestamp ?? '',
    );
    if (Number.isNaN(since)) since = Number.NEGATIVE_INFINITY;
    for (const p of node.pods) if (isPodActive(p)) since = Math.max(since, podCreationMillis(p));
  }
  return Number.isFinite(since) ? since + ms : undefined;
}

/** When a pod's `karpenter.sh/do-not-disrupt: <duration>` stops protecting it, if it does later. */
function doNotDisruptEnds(pod: ManagedNode['pods'][number]): number | undefined {
  if (!isPodActive(pod)) return undefined;
  const value = pod.metadata.annotations?.[Annotations.DoNotDisrupt];
  if (value === undefined || value === 'true') return undefined;
  const ms = durationMs(value);
  if (ms === undefined || ms <= 0 || !Number.isFinite(ms)) return undefined;
  const created = podCreationMillis(pod);
  return Number.isFinite(created) ? created + ms : undefined;
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
  const pools = new Map(snapshot.nodePools.map((p) => [p.metadata.name ?? '', p]));
  for (const node of managedNodes(snapshot.capacity, snapshot.markedForDeletion, snapshot.managedNodes)) {
    const pool = pools.get(node.nodePool);
    if (pool === undefined) continue;
    push(consolidatableAt(node, pool));
    for (const pod of node.pods) push(doNotDisruptEnds(pod));
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
