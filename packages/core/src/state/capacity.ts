import type { Node } from '../apis/kubernetes/node.js';
import type { Pod } from '../apis/kubernetes/pod.js';
import { Labels, Taints } from '../apis/labels.js';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import type { InstanceType } from '../cloudprovider/instance-type.js';
import { Quantity } from '../scheduling/quantity/quantity.js';
import { Requirements } from '../scheduling/requirements/requirements.js';
import { maxResources, parseResourceList, type ResourceList } from '../scheduling/resources/resource-list.js';
import type { ResourceListMemo } from '../scheduling/resources/resource-list-memo.js';
import type { ExistingCapacity } from '../scheduling/solver/types.js';
import { hasTaint } from '../scheduling/taints/tolerations.js';

/** The capacity a cluster already has or is launching, and what each NodePool uses of it. */
export interface ClusterCapacity {
  /** Nodes (with their NodeClaim, if any) and in-flight NodeClaims, sorted by name. */
  readonly existing: ExistingCapacity[];
  /** Per NodePool: the capacity of its nodes and claims, plus `nodes`, for `spec.limits`. */
  readonly nodePoolUsage: Map<string, ResourceList>;
  /** Bound pods whose node is neither a Node nor a NodeClaim of the input. */
  readonly orphans: Array<{ readonly pod: Pod; readonly nodeName: string }>;
}

/** What clusterCapacity may know besides the objects. */
export interface CapacityOptions {
  /**
   * Instance types per NodePool name. An in-flight NodeClaim whose capacity is not known yet
   * (not launched) then counts, against its NodePool's limits, the largest capacity among the
   * types its requirements allow — whichever is launched, the limit holds. Without them such a
   * claim counts one node and no resources.
   */
  readonly instanceTypes?: ReadonlyMap<string, readonly InstanceType[]>;
  /**
   * Names of Nodes or NodeClaims some controller has decided to delete (disruption), which take
   * no new pods although they are not deleted yet.
   */
  readonly markedForDeletion?: ReadonlySet<string>;
  /** Parses each capacity record once across calls (see ResourceListMemo); results are the same without. */
  readonly resourceLists?: ResourceListMemo;
}

/**
 * Pairs Nodes with NodeClaims (by `status.nodeName`, else by provider ID) and hangs the bound
 * pods on them, as the controller's cluster state does:
 *
 * - A NodeClaim without a Node is in-flight capacity: not initialized, its labels, taints and
 *   allocatable coming from the claim. Until it is launched (no `status.allocatable`) it offers
 *   its `spec.resources.requests` — the pods it was created for plus DaemonSet overhead — so
 *   the pods nominated to it fit there and no second claim is made for them.
 * - A Node with a NodeClaim is initialized when the node carries `karpenter.sh/initialized=true`
 *   (the claim's Initialized condition alone is not enough, as in Karpenter); a Node without one
 *   is taken as initialized, as
 *   Karpenter takes nodes it does not manage — unless it still carries the
 *   `karpenter.sh/unregistered` taint: that is a launched instance whose claim has not been paired
 *   with it yet (e.g. a new leader adopting a launch its predecessor did not record), and taking it
 *   for an empty, initialized node would let disruption delete it before its pods arrive.
 * - A node or claim being deleted, marked for deletion, tainted `karpenter.sh/disrupted`, or
 *   cordoned (`spec.unschedulable`) takes no new pods; its pods still count for topology.
 * - NodePool usage counts every Node and in-flight NodeClaim with the `karpenter.sh/nodepool`
 *   label: one node each, and its capacity (the Node's, else the claim's status, else — see
 *   `options.instanceTypes` — the largest type it may become).
 */
export function clusterCapacity(
  nodes: readonly Node[],
  nodeClaims: readonly NodeClaim[],
  boundPods: ReadonlyMap<string, readonly Pod[]>,
  options: CapacityOptions = {},
): ClusterCapacity {
  const marked = options.markedForDeletion ?? new Set<string>();
  const claimOf = new Map<string, NodeClaim>();
  const paired = new Set<NodeClaim>();
  const byProviderId = new Map<string, NodeClaim>();
  for (const claim of nodeClaims) {
    if (claim.status?.providerID) byProviderId.set(claim.status.providerID, claim);
  }
  const nodeNames = new Set(nodes.map((n) => n.metadata.name));
  for (const claim of nodeClaims) {
    const nodeName = claim.status?.nodeName;
    if (nodeName && nodeNames.has(nodeName) && !claimOf.has(nodeName)) {
      claimOf.set(nodeName, claim);
      paired.add(claim);
    }
  }
  for (const node of nodes) {
    const providerId = node.spec.providerID;
    const claim = providerId ? byProviderId.get(providerId) : undefined;
    if (claim !== undefined && !claimOf.has(node.metadata.name) && !paired.has(claim)) {
      claimOf.set(node.metadata.name, claim);
      paired.add(claim);
    }
  }

  const existing: ExistingCapacity[] = [];
  const usage = new Map<string, Map<string, Quantity>>();
  const used = new Set<string>();
  const oneNode = Quantity.fromUnits(1);
  // Summed in place, per NodePool: a new map per node was a measurable share of every snapshot.
  const count = (nodePool: string | undefined, capacity: ResourceList) => {
    if (nodePool === undefined) return;
    let sum = usage.get(nodePool);
    if (sum === undefined) {
      sum = new Map();
      usage.set(nodePool, sum);
    }
    for (const [name, q] of capacity) {
      const current = sum.get(name);
      sum.set(name, current === undefined ? q : current.add(q));
    }
    const nodes = sum.get('nodes');
    sum.set('nodes', nodes === undefined ? oneNode : nodes.add(oneNode));
  };
  const parse = (raw: Readonly<Record<string, string>> | undefined) =>
    options.resourceLists === undefined ? parseResourceList(raw) : options.resourceLists.of(raw);

  for (const node of nodes) {
    const name = node.metadata.name;
    const claim = claimOf.get(name);
    const pods = boundPods.get(name) ?? [];
    used.add(name);
    const initialized = isInitializedNode(node, claim);
    existing.push({
      name,
      node,
      ...(claim === undefined ? {} : { nodeClaim: claim }),
      pods,
      initialized,
      markedForDeletion:
        node.metadata.deletionTimestamp !== undefined ||
        claim?.metadata.deletionTimestamp !== undefined ||
        marked.has(name) ||
        (claim?.metadata.name !== undefined && marked.has(claim.metadata.name)) ||
        node.spec.unschedulable === true ||
        hasTaint(node.spec.taints, Taints.Disrupted),
    });
    const nodePool = node.metadata.labels?.[Labels.NodePool] ?? claim?.metadata.labels?.[Labels.NodePool];
    const capacity = node.status?.capacity ?? claim?.status?.capacity;
    count(
      nodePool,
      capacity !== undefined || claim === undefined
        ? parse(capacity)
        : largestCapacity(claim, options.instanceTypes),
    );
  }
  for (const claim of nodeClaims) {
    if (paired.has(claim)) continue;
    const name = claim.metadata.name ?? claim.metadata.generateName ?? '';
    const nodeName = claim.status?.nodeName;
    const pods = nodeName ? (boundPods.get(nodeName) ?? []) : [];
    if (nodeName) used.add(nodeName);
    existing.push({
      name,
      nodeClaim: withEstimatedAllocatable(claim),
      pods,
      initialized: false,
      markedForDeletion: claim.metadata.deletionTimestamp !== undefined || marked.has(name),
    });
    count(
      claim.metadata.labels?.[Labels.NodePool],
      claim.status?.capacity !== undefined
        ? parse(claim.status.capacity)
        : largestCapacity(claim, options.instanceTypes),
    );
  }
  existing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const orphans: Array<{ pod: Pod; nodeName: string }> = [];
  for (const [nodeName, pods] of boundPods) {
    if (!used.has(nodeName)) for (const pod of pods) orphans.push({ pod, nodeName });
  }
  return { existing, nodePoolUsage: usage, orphans };
}

/**
 * The claim as the solver should see it: unchanged once launched; before that, with its
 * requests as allocatable (the least any type it may become offers).
 */
function withEstimatedAllocatable(claim: NodeClaim): NodeClaim {
  if (claim.status?.allocatable !== undefined) return claim;
  const requests = claim.spec.resources?.requests;
  if (requests === undefined) return claim;
  return { ...claim, status: { ...claim.status, allocatable: { ...requests } } };
}

/** The largest capacity among the instance types the claim's requirements allow, per resource. */
export function largestCapacity(
  claim: NodeClaim,
  instanceTypes: ReadonlyMap<string, readonly InstanceType[]> | undefined,
): ResourceList {
  const pool = claim.metadata.labels?.[Labels.NodePool];
  const types = pool === undefined ? undefined : instanceTypes?.get(pool);
  if (types === undefined || types.length === 0) return new Map();
  const allowed = Requirements.fromNodeSelectorRequirements(claim.spec.requirements).get(Labels.InstanceType);
  const candidates = types.filter((t) => allowed === undefined || allowed.has(t.name));
  return maxResources(...candidates.map((t) => t.capacity));
}

/**
 * Whether pods may be placed on this Node now, by the rule clusterCapacity states: registered
 * (no `karpenter.sh/unregistered` taint) and, when a NodeClaim manages it (`claim`, the one
 * paired with it), labelled `karpenter.sh/initialized=true`; a Node without a claim is, as
 * Karpenter takes nodes it does not manage. The label, not the claim's Initialized condition,
 * decides, as upstream's StateNode does: the lifecycle sets the label first, and a node that
 * lost it (or never got it) is not counted in disruption budgets nor taken as a destination.
 */
export function isInitializedNode(node: Node, claim: NodeClaim | undefined): boolean {
  return (
    !hasTaint(node.spec.taints, Taints.Unregistered) &&
    (claim === undefined || node.metadata.labels?.[Labels.Initialized] === 'true')
  );
}
