import { Labels, type Node, type NodeClaim, type Pod, Taints } from '@nodewright/core/apis';
import {
  addResources,
  type ExistingCapacity,
  parseResourceList,
  Quantity,
  type ResourceList,
} from '@nodewright/core/scheduling';

/** The capacity a cluster already has or is launching, and what each NodePool uses of it. */
export interface ClusterCapacity {
  /** Nodes (with their NodeClaim, if any) and in-flight NodeClaims, sorted by name. */
  readonly existing: ExistingCapacity[];
  /** Per NodePool: the capacity of its nodes and claims, plus `nodes`, for `spec.limits`. */
  readonly nodePoolUsage: Map<string, ResourceList>;
  /** Bound pods whose node is neither a Node nor a NodeClaim of the input. */
  readonly orphans: Array<{ readonly pod: Pod; readonly nodeName: string }>;
}

/**
 * Pairs Nodes with NodeClaims (by `status.nodeName`, else by provider ID) and hangs the bound
 * pods on them, as the controller's cluster state does:
 *
 * - A NodeClaim without a Node is in-flight capacity: not initialized, its labels, taints and
 *   allocatable coming from the claim.
 * - A Node with a NodeClaim is initialized when the claim's Initialized condition is True or the
 *   node carries `karpenter.sh/initialized=true`; a Node without one is taken as initialized, as
 *   Karpenter takes nodes it does not manage.
 * - A node or claim being deleted, tainted `karpenter.sh/disrupted`, or cordoned
 *   (`spec.unschedulable`) takes no new pods; its pods still count for topology.
 * - NodePool usage counts every Node and in-flight NodeClaim with the `karpenter.sh/nodepool`
 *   label: one node each, and its capacity (the Node's, else the claim's status).
 */
export function clusterCapacity(
  nodes: readonly Node[],
  nodeClaims: readonly NodeClaim[],
  boundPods: ReadonlyMap<string, readonly Pod[]>,
): ClusterCapacity {
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
  const usage = new Map<string, ResourceList>();
  const used = new Set<string>();
  const count = (nodePool: string | undefined, capacity: ResourceList) => {
    if (nodePool === undefined) return;
    const one = new Map(capacity).set('nodes', Quantity.fromUnits(1));
    usage.set(nodePool, addResources(usage.get(nodePool) ?? new Map(), one));
  };

  for (const node of nodes) {
    const name = node.metadata.name;
    const claim = claimOf.get(name);
    const pods = boundPods.get(name) ?? [];
    used.add(name);
    const initialized =
      claim === undefined ||
      conditionTrue(claim, 'Initialized') ||
      node.metadata.labels?.[Labels.Initialized] === 'true';
    existing.push({
      name,
      node,
      ...(claim === undefined ? {} : { nodeClaim: claim }),
      pods,
      initialized,
      markedForDeletion:
        node.metadata.deletionTimestamp !== undefined ||
        claim?.metadata.deletionTimestamp !== undefined ||
        node.spec.unschedulable === true ||
        (node.spec.taints ?? []).some(
          (t) => t.key === Taints.Disrupted.key && t.effect === Taints.Disrupted.effect,
        ),
    });
    const nodePool = node.metadata.labels?.[Labels.NodePool] ?? claim?.metadata.labels?.[Labels.NodePool];
    count(nodePool, parseResourceList(node.status?.capacity ?? claim?.status?.capacity));
  }
  for (const claim of nodeClaims) {
    if (paired.has(claim)) continue;
    const name = claim.metadata.name ?? claim.metadata.generateName ?? '';
    const nodeName = claim.status?.nodeName;
    const pods = nodeName ? (boundPods.get(nodeName) ?? []) : [];
    if (nodeName) used.add(nodeName);
    existing.push({
      name,
      nodeClaim: claim,
      pods,
      initialized: false,
      markedForDeletion: claim.metadata.deletionTimestamp !== undefined,
    });
    count(claim.metadata.labels?.[Labels.NodePool], parseResourceList(claim.status?.capacity));
  }
  existing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  const orphans: Array<{ pod: Pod; nodeName: string }> = [];
  for (const [nodeName, pods] of boundPods) {
    if (!used.has(nodeName)) for (const pod of pods) orphans.push({ pod, nodeName });
  }
  return { existing, nodePoolUsage: usage, orphans };
}

function conditionTrue(claim: NodeClaim, type: string): boolean {
  return (claim.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}
