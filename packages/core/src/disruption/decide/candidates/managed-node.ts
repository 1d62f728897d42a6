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
  if (isMarked(c, marked)) return 'node is already being disrupted by an earlier command';
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
  memo?: ManagedNodeMemo,
): ManagedNode[] {
  const out: ManagedNode[] = [];
  for (const c of capacity) {
    const node = memo === undefined ? managedNode(c, marked) : memo.node(c, marked);
    if (node !== undefined) out.push(node);
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The managed Node of one piece of capacity, or undefined when it is not one (see managedNodes). */
function managedNode(c: ExistingCapacity, marked: ReadonlySet<string> | undefined): ManagedNode | undefined {
  const node = c.node;
  if (node === undefined) return undefined;
  const labels = { ...(c.nodeClaim?.metadata.labels ?? {}), ...(node.metadata.labels ?? {}) };
  const nodePool = labels[Labels.NodePool];
  if (nodePool === undefined) return undefined;
  const ready = (node.status?.conditions ?? []).some((x) => x.type === 'Ready' && x.status === 'True');
  const deletingBecause = whyDeleting(c, marked);
  return {
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
  };
}

/** Whether an earlier command's marks name the capacity (by Node or NodeClaim name). */
function isMarked(c: ExistingCapacity, marked: ReadonlySet<string> | undefined): boolean {
  if (marked === undefined) return false;
  const claimName = c.nodeClaim?.metadata.name;
  return marked.has(c.name) || (claimName !== undefined && marked.has(claimName));
}

/**
 * Managed nodes kept per capacity object between passes, so a node nothing changed is the same
 * ManagedNode object pass after pass (and what is derived from it, such as its price, can be kept
 * too). Cluster state hands out the same capacity object while a node's Node, NodeClaim and pods
 * are unchanged; an entry also depends on whether the pass's marks name the node. At 500 nodes,
 * building every node's merged labels and pod lists twice a pass was a measurable share of a
 * long simulation.
 */
export class ManagedNodeMemo {
  readonly #nodes = new WeakMap<
    ExistingCapacity,
    { readonly marked: boolean; readonly node: ManagedNode | undefined }
  >();

  node(c: ExistingCapacity, marked: ReadonlySet<string> | undefined): ManagedNode | undefined {
    const isIn = isMarked(c, marked);
    const kept = this.#nodes.get(c);
    if (kept !== undefined && kept.marked === isIn) return kept.node;
    const node = managedNode(c, marked);
    this.#nodes.set(c, { marked: isIn, node });
    return node;
  }
}
