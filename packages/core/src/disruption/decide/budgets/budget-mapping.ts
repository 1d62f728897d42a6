import type { DisruptionReason } from '../../../apis/v1/budget.js';
import type { NodePool } from '../../../apis/v1/nodepool.js';
import { allowedDisruptions, type ReasonAllowance, UnlimitedDisruptions } from './allowed-disruptions.js';

/** What budget accounting needs to know about one managed node. */
export interface BudgetNode {
  readonly name: string;
  readonly nodePool: string;
  readonly initialized: boolean;
  /** The Node's Ready condition is True. */
  readonly ready: boolean;
  /** Being deleted or already being disrupted. */
  readonly deleting: boolean;
}

/** One NodePool's budget for one reason in this pass. */
export interface PoolBudget {
  readonly nodePool: string;
  readonly reason: DisruptionReason;
  /** Initialized managed nodes of the NodePool: the total percentages apply to. */
  readonly nodes: number;
  /** Of those, the ones that are NotReady or deleting: they use up allowance already. */
  readonly disrupting: readonly string[];
  /** What the budgets allow before subtracting `disrupting`. */
  readonly limit: ReasonAllowance;
  /** How many more nodes may be disrupted now: limit - disrupting, never below 0. */
  readonly allowed: number;
}

/**
 * Karpenter's disruption budget mapping for a reason: per NodePool, the budgets' allowance over
 * its initialized nodes, minus the nodes that are NotReady or deleting (uninitialized nodes
 * count for neither, so a launching replacement does not inflate a percentage). Every NodePool
 * gets an entry, with or without nodes.
 */
export function disruptionBudgets(
  nodes: readonly BudgetNode[],
  nodePools: readonly NodePool[],
  reason: DisruptionReason,
  now: number,
): Map<string, PoolBudget> {
  const counted = new Map<string, number>();
  const disrupting = new Map<string, string[]>();
  for (const n of nodes) {
    if (!n.initialized) continue;
    counted.set(n.nodePool, (counted.get(n.nodePool) ?? 0) + 1);
    if (!n.ready || n.deleting) disrupting.set(n.nodePool, [...(disrupting.get(n.nodePool) ?? []), n.name]);
  }
  const out = new Map<string, PoolBudget>();
  for (const pool of nodePools) {
    const name = pool.metadata.name ?? '';
    const total = counted.get(name) ?? 0;
    const busy = disrupting.get(name) ?? [];
    const limit = allowedDisruptions(pool, total, reason, now);
    const allowed = Math.min(Math.max(limit.allowed - busy.length, 0), UnlimitedDisruptions);
    out.set(name, { nodePool: name, reason, nodes: total, disrupting: busy, limit, allowed });
  }
  return out;
}

/**
 * The allowance left per NodePool while one method picks candidates; each method starts from a
 * fresh copy, as the controller builds the mapping per method.
 */
export class BudgetLedger {
  readonly #left = new Map<string, number>();

  constructor(budgets: ReadonlyMap<string, PoolBudget>) {
    for (const [name, b] of budgets) this.#left.set(name, b.allowed);
  }

  /** How many more nodes of the NodePool may be disrupted (0 for an unknown NodePool). */
  left(nodePool: string): number {
    return this.#left.get(nodePool) ?? 0;
  }

  /** Takes one disruption from the NodePool's allowance; false (and no change) when none is left. */
  take(nodePool: string): boolean {
    const left = this.left(nodePool);
    if (left <= 0) return false;
    this.#left.set(nodePool, left - 1);
    return true;
  }
}
