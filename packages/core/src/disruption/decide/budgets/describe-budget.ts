import type { Budget } from '../../../apis/v1/budget.js';
import type { NodePool } from '../../../apis/v1/nodepool.js';
import type { PoolBudget } from './budget-mapping.js';

function budgetText(budget: Budget | undefined, index: number): string {
  if (budget === undefined) return `budgets[${index}]`;
  const window =
    budget.schedule === undefined ? '' : `, schedule "${budget.schedule}" for ${budget.duration ?? '?'}`;
  const reasons = budget.reasons === undefined ? '' : `, reasons ${budget.reasons.join(', ')}`;
  return `budgets[${index}]: nodes "${budget.nodes}"${window}${reasons}`;
}

function names(list: readonly string[]): string {
  const shown = list.slice(0, 3).join(', ');
  return list.length > 3 ? `${shown} and ${list.length - 3} more` : shown;
}

/**
 * Why a NodePool's budget lets no node be disrupted for its reason now: the budget that allows
 * 0 (misconfigured, or active with nodes 0), or the allowance already used by nodes that are
 * NotReady or deleting.
 */
export function describeBudgetBlock(b: PoolBudget, nodePool: Pick<NodePool, 'spec'>): string {
  const head = `the disruption budget of NodePool ${b.nodePool} allows`;
  const index = b.limit.budget;
  const budget = index === undefined ? undefined : nodePool.spec.disruption.budgets[index];
  if (b.limit.allowed === 0 && index !== undefined) {
    const error = b.limit.errors.find((e) => e.startsWith(`budgets[${index}]:`));
    if (error !== undefined) return `${head} no disruptions: ${error} (a misconfigured budget allows none)`;
    return `${head} no ${b.reason} disruptions now (${budgetText(budget, index)}, ${b.nodes} node${b.nodes === 1 ? '' : 's'})`;
  }
  const by = index === undefined ? '' : ` (${budgetText(budget, index)})`;
  return `${head} ${b.limit.allowed} ${b.reason} disruption${b.limit.allowed === 1 ? '' : 's'} of ${b.nodes} node${b.nodes === 1 ? '' : 's'}${by}, used by ${b.disrupting.length} node${b.disrupting.length === 1 ? '' : 's'} already NotReady or deleting (${names(b.disrupting)})`;
}

/** Why a node the budget would have allowed was left out: earlier candidates of this pass took the allowance. */
export function describeBudgetTaken(b: PoolBudget): string {
  return `the disruption budget of NodePool ${b.nodePool} allows ${b.allowed} ${b.reason} disruption${b.allowed === 1 ? '' : 's'} now, all taken by other nodes in this pass`;
}
