import type { Node } from '../../apis/kubernetes/node.js';
import { Labels, Taints } from '../../apis/labels.js';
import { DisruptionReasons } from '../../apis/v1/budget.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import type { BudgetNode } from '../../disruption/decide/budgets/budget-mapping.js';
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
  const name = pool.metadata.name ?? '';
  return DisruptionReasons.map((reason) => ({
    labels: { nodepool: name, reason: reason.toLowerCase() },
    value: disruptionBudgets(nodes, [pool], reason, now).get(name)?.allowed ?? 0,
  }));
}
