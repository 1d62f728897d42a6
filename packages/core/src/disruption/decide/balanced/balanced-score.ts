import type { Pod } from '../../../apis/kubernetes/pod.js';
import type { InstanceType } from '../../../cloudprovider/instance-type.js';
import type { ManagedNode } from '../candidates/managed-node.js';
import { nodePrice } from '../candidates/node-price.js';
import { evictionCost } from '../candidates/pods.js';

/**
 * The Balanced policy's k: a move passes when its score (share of the pool's cost saved over
 * share of the pool's disruption caused) is at least 1/k. Karpenter fixes k = 2.
 */
export const BalancedK = 2;

/** What draining any node costs before its pods are counted (cordon, drain, replacement). */
export const PerNodeDisruptionCost = 1;

/**
 * A node's disruption cost under the Balanced policy: 1 for the node, plus each reschedulable
 * pod's eviction cost (never below 0). Unlike the consolidation order's disruption cost, the
 * node's remaining lifetime does not discount it. Pure.
 */
export function rescheduleDisruptionCost(reschedulable: readonly Pod[]): number {
  return reschedulable.reduce((sum, pod) => sum + Math.max(0, evictionCost(pod)), PerNodeDisruptionCost);
}

/** A NodePool's totals a Balanced score is normalised by. */
export interface PoolTotals {
  /** Per hour: every node of the pool at its offering's price (nodes of unknown price add 0). */
  readonly cost: number;
  /** Every node of the pool's `rescheduleDisruptionCost`, candidates or not. */
  readonly disruptionCost: number;
}

/**
 * Per NodePool, the totals of all its managed nodes (not only the candidates: a pool of ten
 * nodes where one may move still divides by ten). Pure.
 */
export function poolTotals(
  nodes: readonly Pick<ManagedNode, 'nodePool' | 'labels' | 'reschedulable'>[],
  instanceTypes: ReadonlyMap<string, readonly InstanceType[]>,
): Map<string, PoolTotals> {
  const out = new Map<string, { cost: number; disruptionCost: number }>();
  for (const node of nodes) {
    const totals = out.get(node.nodePool) ?? { cost: 0, disruptionCost: 0 };
    const price = nodePrice(node, instanceTypes);
    totals.cost += price.known ? price.price : 0;
    totals.disruptionCost += rescheduleDisruptionCost(node.reschedulable);
    out.set(node.nodePool, totals);
  }
  return out;
}

/** How one consolidation move scores against one Balanced NodePool. */
export interface BalancedScore {
  readonly nodePool: string;
  /** The move's savings (this pool's share) over the pool's total cost. */
  readonly savingsFraction: number;
  /** The move's disruption in this pool over the pool's total disruption. */
  readonly disruptionFraction: number;
  /** savingsFraction / disruptionFraction; 0 when nothing is saved, Infinity when nothing is disrupted. */
  readonly score: number;
  readonly approved: boolean;
}

/**
 * Karpenter's Balanced score of a move in one pool: approved when the share of the pool's cost it
 * saves is at least 1/k of the share of the pool's disruption it causes. A pool whose totals are
 * zero has nothing to normalise by: the move saves nothing there and is not approved. Pure.
 */
export function scoreMove(
  nodePool: string,
  savings: number,
  disruptionCost: number,
  totals: PoolTotals | undefined,
): BalancedScore {
  const savingsFraction = totals !== undefined && totals.cost > 0 ? savings / totals.cost : 0;
  const disruptionFraction =
    totals !== undefined && totals.disruptionCost > 0 ? disruptionCost / totals.disruptionCost : 0;
  const score =
    savingsFraction <= 0 || totals === undefined || totals.disruptionCost <= 0
      ? 0
      : disruptionFraction === 0
        ? Number.POSITIVE_INFINITY
        : savingsFraction / disruptionFraction;
  return { nodePool, savingsFraction, disruptionFraction, score, approved: score >= 1 / BalancedK };
}

/** One candidate of a move, as the Balanced verdict reads it. */
export interface ScoredCandidate {
  readonly nodePool: string;
  readonly consolidationPolicy: string;
  /** Per hour; 0 when unknown. */
  readonly price: number;
  readonly reschedulable: readonly Pod[];
}

/**
 * The Balanced verdict on a move that saves `savings` per hour by removing `candidates`: each
 * Balanced NodePool among them scores it alone (a move spanning pools gives each pool the share
 * of the savings its nodes' prices make up), and the move passes only if every one approves.
 * Pools of other policies are not scored. Undefined when no candidate's pool is Balanced. Pure.
 */
export function balancedVerdict(
  candidates: readonly ScoredCandidate[],
  savings: number,
  totals: ReadonlyMap<string, PoolTotals>,
): BalancedVerdict | undefined {
  const byPool = new Map<string, ScoredCandidate[]>();
  for (const c of candidates) byPool.set(c.nodePool, [...(byPool.get(c.nodePool) ?? []), c]);
  const sourceCost = candidates.reduce((sum, c) => sum + c.price, 0);
  const scores: BalancedScore[] = [];
  for (const [pool, members] of [...byPool].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (members[0]!.consolidationPolicy !== 'Balanced') continue;
    const poolCost = members.reduce((sum, c) => sum + c.price, 0);
    const poolSavings = byPool.size > 1 && sourceCost > 0 ? savings * (poolCost / sourceCost) : savings;
    const disruption = members.reduce((sum, c) => sum + rescheduleDisruptionCost(c.reschedulable), 0);
    scores.push(scoreMove(pool, poolSavings, disruption, totals.get(pool)));
  }
  if (scores.length === 0) return undefined;
  return { approved: scores.every((s) => s.approved), scores };
}

/** The Balanced verdict on one move: approved only if every Balanced pool of it approves. */
export interface BalancedVerdict {
  readonly approved: boolean;
  readonly scores: readonly BalancedScore[];
}

/**
 * A consolidation move a method scored, for Karpenter's `karpenter_consolidation_moves_total`
 * and `karpenter_consolidation_score` (one per NodePool of the move's candidates).
 */
export interface ScoredMove {
  /** The move's fate: approved, or rejected by some Balanced pool. */
  readonly decision: 'approved' | 'rejected';
  readonly nodePool: string;
  /** The pool's consolidationPolicy, as written. */
  readonly policy: string;
  /** For a Balanced pool: its score and whether it approved. */
  readonly score?: { readonly value: number; readonly approved: boolean };
}

/** One ScoredMove per NodePool of `candidates`, sorted by pool. Pure. */
export function scoredMoves(
  candidates: readonly ScoredCandidate[],
  decision: 'approved' | 'rejected',
  verdict: BalancedVerdict | undefined,
): ScoredMove[] {
  const pools = new Map<string, string>();
  for (const c of candidates) if (!pools.has(c.nodePool)) pools.set(c.nodePool, c.consolidationPolicy);
  return [...pools]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([nodePool, policy]) => {
      const score = verdict?.scores.find((s) => s.nodePool === nodePool);
      return {
        decision,
        nodePool,
        policy,
        ...(score === undefined ? {} : { score: { value: score.score, approved: score.approved } }),
      };
    });
}

/** A rejected verdict in words, with the numbers (for notes and the Unconsolidatable event). */
export function describeRejection(scores: readonly BalancedScore[]): string {
  const failed = scores.filter((s) => !s.approved);
  const percent = (x: number) => `${Number((x * 100).toFixed(1))} %`;
  return failed
    .map(
      (s) =>
        `NodePool ${s.nodePool} has consolidationPolicy Balanced and the move scores ${Number(s.score.toFixed(3))}, below ${1 / BalancedK}: it saves ${percent(s.savingsFraction)} of the pool's cost for ${percent(s.disruptionFraction)} of its disruption`,
    )
    .join('; ');
}
