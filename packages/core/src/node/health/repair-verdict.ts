import type { Node } from '../../apis/kubernetes/node.js';
import type { RepairPolicy } from '../../cloudprovider/cloud-provider.js';
import { parseTime } from '../../kube/object.js';

/** Share of a NodePool's Nodes that may be unhealthy for repair to act (upstream's 20 %). */
export const AllowedUnhealthyFraction = 0.2;

/** Whether a Node must be repaired now, later, or not at all. */
export type RepairVerdict =
  | { readonly kind: 'healthy' }
  | {
      /** A policy's condition holds but its toleration has not run out; look again then. */
      readonly kind: 'tolerated';
      readonly policy: RepairPolicy;
      readonly recheckInMs: number;
    }
  | {
      readonly kind: 'repair';
      readonly policy: RepairPolicy;
      /** How long the condition has held (ms). */
      readonly unhealthyForMs: number;
    };

/** The first repair policy whose condition the Node currently shows, with when it began. */
function matchedPolicies(node: Pick<Node, 'status'>, policies: readonly RepairPolicy[]) {
  const conditions = node.status?.conditions ?? [];
  return policies.flatMap((policy) => {
    const condition = conditions.find((c) => c.type === policy.conditionType);
    if (condition === undefined || condition.status !== policy.conditionStatus) return [];
    return [{ policy, since: condition.lastTransitionTime }];
  });
}

/** Whether any repair policy's condition holds on the Node, however briefly. */
export function isUnhealthy(node: Pick<Node, 'status'>, policies: readonly RepairPolicy[]): boolean {
  return matchedPolicies(node, policies).length > 0;
}

/**
 * The repair verdict for one Node: `repair` once a matching condition has held for its policy's
 * toleration (measured from the condition's lastTransitionTime), `tolerated` before that, with
 * the earliest deadline among the matching policies. A condition with no transition time counts
 * from `now`, so a missing timestamp never repairs a node at once.
 */
export function repairVerdict(
  node: Pick<Node, 'status'>,
  policies: readonly RepairPolicy[],
  now: number,
): RepairVerdict {
  let soonest: { policy: RepairPolicy; deadline: number; since: number } | undefined;
  for (const { policy, since } of matchedPolicies(node, policies)) {
    const start = since === undefined ? now : parseTime(since);
    const deadline = start + policy.tolerationDurationMs;
    if (soonest === undefined || deadline < soonest.deadline) soonest = { policy, deadline, since: start };
  }
  if (soonest === undefined) return { kind: 'healthy' };
  if (now < soonest.deadline) {
    return { kind: 'tolerated', policy: soonest.policy, recheckInMs: soonest.deadline - now };
  }
  return { kind: 'repair', policy: soonest.policy, unhealthyForMs: now - soonest.since };
}

/** Whether a NodePool's health lets repair act, with the figures behind the answer. */
export interface PoolRepairBudget {
  readonly allowed: boolean;
  readonly nodes: number;
  readonly unhealthy: number;
  /** The most Nodes that may be unhealthy (and so under repair) at once: 20 % rounded up. */
  readonly threshold: number;
  /** Why repair is held back, when it is. */
  readonly reason?: string;
}

/**
 * Upstream's node-repair guard: a pool with more than 20 % (rounded up) of its Nodes unhealthy
 * is not repaired at all — so many failures point at the cloud or the image, and replacing them
 * would only churn. Nodes under repair stay unhealthy until they are gone, so the same count
 * also caps how many are replaced at once.
 */
export function poolRepairBudget(
  poolNodes: readonly Pick<Node, 'status'>[],
  policies: readonly RepairPolicy[],
): PoolRepairBudget {
  const nodes = poolNodes.length;
  const unhealthy = poolNodes.filter((n) => isUnhealthy(n, policies)).length;
  const threshold = Math.ceil(nodes * AllowedUnhealthyFraction);
  if (unhealthy <= threshold) return { allowed: true, nodes, unhealthy, threshold };
  return {
    allowed: false,
    nodes,
    unhealthy,
    threshold,
    reason: `${unhealthy} of ${nodes} nodes in the NodePool are unhealthy, more than the ${threshold} (20 %) node repair may replace; not repairing`,
  };
}
