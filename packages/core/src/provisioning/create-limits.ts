import type { NodePool } from '../apis/v1/nodepool.js';
import { Quantity } from '../scheduling/quantity/quantity.js';
import {
  defaultFormatFor,
  parseResourceList,
  type ResourceList,
} from '../scheduling/resources/resource-list.js';

const NODES = 'nodes';

/**
 * The create-time re-check of a NodePool's `spec.limits`: whether one more NodeClaim that may
 * become a node as large as `claimCapacity` keeps the pool within its limits given `usage` (the
 * pool's nodes and claims now, claims created moments ago included). Karpenter re-checks here
 * because the solve's view of usage may be stale (another decision launched meanwhile, the
 * limits were lowered). Returns why the claim must not be created, or undefined.
 */
export function limitsExceededAtCreate(
  nodePool: NodePool,
  usage: ResourceList | undefined,
  claimCapacity: ResourceList,
): string | undefined {
  const limits = parseResourceList(nodePool.spec.limits);
  const over: string[] = [];
  for (const [resource, limit] of [...limits].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const used = usage?.get(resource)?.nanos ?? 0n;
    const adds =
      resource === NODES ? Quantity.fromUnits(1).nanos : (claimCapacity.get(resource)?.nanos ?? 0n);
    if (used + adds <= limit.nanos) continue;
    const fmt = (nanos: bigint) => Quantity.fromNanos(nanos, defaultFormatFor(resource)).toString();
    over.push(
      `${resource}: limit ${limit.toString()}, in use ${fmt(used)}, this NodeClaim up to ${fmt(adds)}`,
    );
  }
  if (over.length === 0) return undefined;
  return `NodePool ${nodePool.metadata.name} would exceed its limits (${over.join('; ')})`;
}
