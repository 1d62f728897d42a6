import type { Node } from '../../../apis/kubernetes/node.js';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import { Labels, Taints } from '../../../apis/labels.js';
import type { NodeClaim } from '../../../apis/v1/nodeclaim.js';
import { isReschedulable } from '../../../kube/pod.js';
import type { ExistingCapacity } from '../../../scheduling/solver/types.js';
import { hasTaint } from '../../../scheduling/taints/tolerations.js';
import type { BudgetNode } from '../budgets/budget-mapping.js';
import { isNominatedPod } from './pods.js';

/** A registered Node that a NodePool owns, as disruption reads it. */
export interface ManagedNode extends BudgetNode {
  readonly capacity: ExistingCapacity;
  readonly node: Node;
  readonly nodeClaim: NodeClaim | undefined;
  /** The Node's labels, with the NodeClaim's for keys the Node lacks. */
  readonly labels: Readonly<Record<string, string>>;
  /** The Node's and the NodeClaim's annotations (the Node's win). */
  readonly annotations: Readonly<Record<string, string>>;
  /** Why it is going away already (deletion requested, or disrupted taint), if it is. */
  readonly deletingBecause: string | undefined;
  /** Pods bound to it (any phase); nominated pending pods are in `nominated`. */
  readonly pods: readonly Pod[];
  readonly nominated: readonly Pod[];
  /** Bound pods that would have to move if it went (see isReschedulable). */
  readonly reschedulable: readonly Pod[];
}

function whyDeleting(c: ExistingCapacity, marked: ReadonlySet<string> | undefined): string | undefined {
  if (c.node?.metadata.deletionTimestamp !== undefined) return 'node is being deleted';
  const claimName = c.nodeClaim?.metadata.name;
  if (marked?.has(c.name) || (claimName !== undefined && marked?.has(claimName)))
    return 'node is already being disrupted by an earlier command';
  if (c.nodeClaim?.metadata.deletionTimestamp !== undefined) return 'its NodeClaim is being deleted';
  if (hasTaint(c.node?.spec.taints, Taints.Disrupted))
    return `node is already being disrupted (${Taints.Disrupted.key} taint)`;
  return undefined;
}

/**
 * The capacity is being deleted or disrupted (deletion requested, the disrupted taint, or
 * `marked` by an earlier command): it takes no pods and its pods must move. A cordoned node is
 * not deleting.
 */
export function isDeletingCapacity(c: ExistingCapacity, marked?: ReadonlySet<string>): boolean {
  return whyDeleting(c, marked) !== undefined;
}

/**
 * The managed Nodes of the snapshot, by name: capacity with a registered Node whose labels (or
 * NodeClaim's) carry `karpenter.sh/nodepool`. In-flight NodeClaims without a Node are not
 * nodes yet and are left out (they count for nothing in budgets either: not initialized).
 */
export function managedNodes(
  capacity: readonly ExistingCapacity[],
  marked?: ReadonlySet<string>,
): ManagedNode[] {
  const out: ManagedNode[] = [];
  for (const c of capacity) {
    const node = c.node;
    if (node === undefined) continue;
    const labels = { ...(c.nodeClaim?.metadata.labels ?? {}), ...(node.metadata.labels ?? {}) };
    const nodePool = labels[Labels.NodePool];
    if (nodePool === undefined) continue;
    const ready = (node.status?.conditions ?? []).some((x) => x.type === 'Ready' && x.status === 'True');
    const deletingBecause = whyDeleting(c, marked);
    out.push({
      name: c.name,
      nodePool,
      initialized: c.initialized,
      ready,
      deleting: deletingBecause !== undefined,
      deletingBecause,
      capacity: c,
      node,
      nodeClaim: c.nodeClaim,
      labels,
      annotations: { ...(c.nodeClaim?.metadata.annotations ?? {}), ...(node.metadata.annotations ?? {}) },
      pods: c.pods.filter((p) => !isNominatedPod(p)),
      nominated: c.pods.filter(isNominatedPod),
      reschedulable: c.pods.filter(isReschedulable),
    });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
