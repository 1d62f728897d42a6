import type { Node } from '../../apis/kubernetes/node.js';
import { Labels, Taints } from '../../apis/labels.js';
import { DisruptionReasons } from '../../apis/v1/budget.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import type { BudgetNode, PoolBudget } from '../../disruption/decide/budgets/budget-mapping.js';
import { disruptionBudgets } from '../../disruption/decide/budgets/budget-mapping.js';
import { parseResourceList, type ResourceListInput } from '../../scheduling/resources/resource-list.js';
import { resourceTypeLabel } from '../labels.js';
import type { Series } from '../series.js';

/** `{nodepool, resource_type}` series of a resource list (usage or limits), in base units. */
export function nodePoolResourceSeries(
  nodePool: string,
  resources: ResourceListInput | undefined,
): Series<'nodepool' | 'resource_type'>[] {
  return [...parseResourceList(resources)].map(([name, q]) => ({
    labels: { nodepool: nodePool, resource_type: resourceTypeLabel(name) },
    value: q.toNumber(),
  }));
}

/**
 * A Node as budget accounting sees it (see disruption's `BudgetNode`): initialized by its
 * `karpenter.sh/initialized` label, ready by its Ready condition, deleting when `deleting` says
 * so (deletion requested or marked by a command) or it carries the disrupted taint.
 */
export function budgetNodeOf(
  node: Pick<Node, 'metadata' | 'spec' | 'status'>,
  deleting: boolean,
): BudgetNode {
  const labels = node.metadata.labels ?? {};
  return {
    name: node.metadata.name ?? '',
    nodePool: labels[Labels.NodePool] ?? '',
    initialized: labels[Labels.Initialized] === 'true',
    ready: (node.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
    deleting: deleting || (node.spec?.taints ?? []).some((t) => t.key === Taints.Disrupted.key),
  };
}

/**
 * `karpenter_nodepools_allowed_disruptions{nodepool, reason}` for each disruption reason
 * (`underutilized`, `empty`, `drifted`, lower case as Karpenter labels them): what the pool's
 * budgets allow at `now` over its initialized nodes, minus those NotReady or deleting. Pure.
 */
export function allowedDisruptionSeries(
  pool: NodePool,
  nodes: readonly BudgetNode[],
  now: number,
): Series<'nodepool' | 'reason'>[] {
  return budgetSeries(pool, nodes, now, (b) => b.allowed);
}

/**
 * `karpenter_nodepools_nodes_consuming_budgets{nodepool, reason}`: the pool's initialized nodes
 * that are NotReady or deleting, which use up its budgets' allowance already. Pure.
 */
export function consumingBudgetSeries(
  pool: NodePool,
  nodes: readonly BudgetNode[],
  now: number,
): Series<'nodepool' | 'reason'>[] {
  return budgetSeries(pool, nodes, now, (b) => b.disrupting.length);
}

function budgetSeries(
  pool: NodePool,
  nodes: readonly BudgetNode[],
  now: number,
  value: (budget: PoolBudget) => number,
): Series<'nodepool' | 'reason'>[] {
  const name = pool.metadata.name ?? '';
  return DisruptionReasons.map((reason) => {
    const budget = disruptionBudgets(nodes, [pool], reason, now).get(name);
    return {
      labels: { nodepool: name, reason: reason.toLowerCase() },
      value: budget === undefined ? 0 : value(budget),
    };
  });
}
