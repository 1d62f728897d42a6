import type { DaemonSet } from '../apis/kubernetes/daemon-set.js';
import type { Node } from '../apis/kubernetes/node.js';
import type { PersistentVolume } from '../apis/kubernetes/persistent-volume.js';
import type { PersistentVolumeClaim } from '../apis/kubernetes/persistent-volume-claim.js';
import type { Pod } from '../apis/kubernetes/pod.js';
import type { StorageClass } from '../apis/kubernetes/storage-class.js';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import type { NodePool } from '../apis/v1/nodepool.js';
import type { InstanceType } from '../cloudprovider/instance-type.js';
import { isPodTerminal } from '../kube/pod.js';
import { podRequests } from '../scheduling/pod/requests.js';
import { fits } from '../scheduling/resources/fits.js';
import {
  parseResourceList,
  type ResourceList,
  subtractResources,
} from '../scheduling/resources/resource-list.js';
import type { ResourceListMemo } from '../scheduling/resources/resource-list-memo.js';
import type { ExistingCapacity, SolverInput, SolverOptions } from '../scheduling/solver/types.js';
import { clusterCapacity } from './capacity.js';
import { type NodePoolUsabilityOptions, whyNodePoolUnusable } from './nodepool-usability.js';
import { type PodRoleOptions, podId, podRole } from './pod-role.js';

/** The objects one provisioning decision is made from, as parsed by their schemas. */
export interface ClusterObjects {
  readonly pods: readonly Pod[];
  readonly nodes: readonly Node[];
  readonly nodeClaims: readonly NodeClaim[];
  readonly nodePools: readonly NodePool[];
  readonly daemonSets?: readonly DaemonSet[];
  readonly persistentVolumeClaims?: readonly PersistentVolumeClaim[];
  readonly persistentVolumes?: readonly PersistentVolume[];
  readonly storageClasses?: readonly StorageClass[];
}

/** Capacity a pod was nominated to: an in-flight NodeClaim (by name) or a Node (by name). */
export interface CapacityRef {
  readonly nodeClaim?: string;
  readonly node?: string;
}

/** `nodeclaim/a`, `node/b`, or both: how events and reasons name a CapacityRef. */
export function describeCapacity(ref: CapacityRef): string {
  const parts: string[] = [];
  if (ref.nodeClaim !== undefined) parts.push(`nodeclaim/${ref.nodeClaim}`);
  if (ref.node !== undefined) parts.push(`node/${ref.node}`);
  return parts.join(', ');
}

/** A pod the decision leaves out, and why (printed so nothing disappears silently). */
export interface IgnoredPod {
  readonly pod: string;
  readonly reason: string;
}

/** A NodePool the decision does not launch from, and why. */
export interface UnusableNodePool {
  readonly nodePool: NodePool;
  readonly reason: string;
}

/** How a snapshot is cut. */
export interface SolverSnapshotOptions extends PodRoleOptions, NodePoolUsabilityOptions {
  /**
   * The provisioner's nominations: where a pending pod was already placed by an earlier
   * decision (a NodeClaim launching for it, or a node it should bind to). Such a pod is counted
   * there, not placed again — so one burst of pods never launches twice. When the capacity is
   * not in the objects yet (a claim just created, not seen by the informer), the pod is left out
   * altogether until the nomination ends. When it is an initialized node that no longer has room
   * for the pod (kube-scheduler bound others there), the pod is placed again at once.
   */
  readonly nominatedTo?: (pod: Pod) => CapacityRef | undefined;
  /** Nodes or NodeClaims (by name) decided for deletion: they take no new pods. */
  readonly markedForDeletion?: ReadonlySet<string>;
  /**
   * NodePools (by name) left out for a reason found elsewhere, e.g. their instance types could
   * not be listed; noted like unusable ones.
   */
  readonly excludeNodePools?: ReadonlyMap<string, string>;
  /** Passed to the solver as `SolverInput.options`. */
  readonly solverOptions?: SolverOptions;
  /**
   * Passed to the solver as `SolverInput.wellKnownLabels`: the provider's `wellKnownLabels()`,
   * or the catalogs' (see `catalogWellKnownLabels`).
   */
  readonly wellKnownLabels?: ReadonlySet<string>;
  /** Parses each Node's and NodeClaim's capacity once across snapshots (see ResourceListMemo). */
  readonly resourceLists?: ResourceListMemo;
}

/** The solver's input and what was left out of it. */
export interface SolverSnapshot {
  readonly input: SolverInput;
  readonly ignored: IgnoredPod[];
  /** `NodePool <name> is not used: <why>`, one per NodePool left out, in input order. */
  readonly notes: string[];
  readonly unusableNodePools: UnusableNodePool[];
}

/**
 * The snapshot one provisioning decision looks at, from the cluster's objects — the one
 * function the provisioner controller, the simulator and the `schedule`/`disrupt` commands cut
 * their input with:
 *
 * - Pending pods are those without `spec.nodeName` that the provisioner acts on (see podRole;
 *   `requireUnschedulable` for the controller); the others are listed in `ignored` with the
 *   reason. A pending pod kube-scheduler nominated (`status.nominatedNodeName`) to a node of the
 *   input counts on that node instead, as does one the provisioner nominated (`nominatedTo`).
 * - Bound pods are grouped onto their Node (or in-flight NodeClaim); see clusterCapacity. Pods
 *   bound to a node that is not in the input are ignored.
 * - NodePools are used unless being deleted, static, or not Ready (see whyNodePoolUnusable);
 *   each gets `instanceTypesByPool.get(name)`, none when absent (the solver then says so per
 *   pod). NodePool usage counts nodes and in-flight claims, not-yet-launched ones at the
 *   largest type they may become.
 *
 * Pure: the objects are not changed, and the same objects give the same snapshot.
 */
export function buildSolverInput(
  objects: ClusterObjects,
  instanceTypesByPool: ReadonlyMap<string, readonly InstanceType[]>,
  options: SolverSnapshotOptions = {},
): SolverSnapshot {
  const notes: string[] = [];
  const ignored: IgnoredPod[] = [];
  const unusableNodePools: UnusableNodePool[] = [];
  const nodePools: NodePool[] = [];
  const instanceTypes = new Map<string, readonly InstanceType[]>();
  for (const pool of objects.nodePools) {
    const name = pool.metadata.name ?? '';
    const reason = whyNodePoolUnusable(pool, options) ?? options.excludeNodePools?.get(name);
    if (reason !== undefined) {
      notes.push(`NodePool ${name} is not used: ${reason}`);
      unusableNodePools.push({ nodePool: pool, reason });
      continue;
    }
    nodePools.push(pool);
    instanceTypes.set(name, instanceTypesByPool.get(name) ?? []);
  }

  const nodeNames = new Set([
    ...objects.nodes.map((n) => n.metadata.name),
    ...objects.nodeClaims.flatMap((c) => (c.status?.nodeName ? [c.status.nodeName] : [])),
  ]);
  const pending: Pod[] = [];
  const bound = new Map<string, Pod[]>();
  const nominated: Array<{ pod: Pod; ref: CapacityRef }> = [];
  const bind = (nodeName: string, pod: Pod) => {
    const list = bound.get(nodeName);
    if (list === undefined) bound.set(nodeName, [pod]);
    else list.push(pod);
  };
  for (const pod of objects.pods) {
    const role = podRole(pod, options);
    if (role.role === 'ignored') {
      ignored.push({ pod: podId(pod), reason: role.reason });
      continue;
    }
    if (role.role === 'bound') {
      bind(role.nodeName, pod);
      continue;
    }
    const byScheduler = pod.status?.nominatedNodeName;
    if (byScheduler && nodeNames.has(byScheduler)) {
      ignored.push({
        pod: podId(pod),
        reason: `nominated to node ${byScheduler} by kube-scheduler: counted there`,
      });
      bind(byScheduler, pod);
      continue;
    }
    const ref = options.nominatedTo?.(pod);
    if (ref !== undefined) nominated.push({ pod, ref });
    else pending.push(pod);
  }

  const capacity = clusterCapacity(objects.nodes, objects.nodeClaims, bound, {
    instanceTypes: instanceTypesByPool,
    ...(options.markedForDeletion === undefined ? {} : { markedForDeletion: options.markedForDeletion }),
    ...(options.resourceLists === undefined ? {} : { resourceLists: options.resourceLists }),
  });
  for (const { pod, nodeName } of capacity.orphans) {
    ignored.push({ pod: podId(pod), reason: `bound to node ${nodeName}, which is not in the input` });
  }
  const { existing, displaced } = attachNominated(capacity.existing, nominated, ignored);
  pending.push(...displaced);

  const input: SolverInput = {
    pods: pending,
    existing,
    daemonSets: objects.daemonSets ?? [],
    nodePools,
    instanceTypes,
    persistentVolumeClaims: objects.persistentVolumeClaims ?? [],
    persistentVolumes: objects.persistentVolumes ?? [],
    storageClasses: objects.storageClasses ?? [],
    nodePoolUsage: capacity.nodePoolUsage,
    ...(options.solverOptions === undefined ? {} : { options: options.solverOptions }),
    ...(options.wellKnownLabels === undefined ? {} : { wellKnownLabels: options.wellKnownLabels }),
  };
  return { input, ignored, notes, unusableNodePools };
}

/**
 * Adds each nominated pod to the capacity it was nominated to (the claim first, else the node)
 * while that capacity still has room for it, and returns the pods that are placed afresh
 * instead. kube-scheduler binds pods where it finds room, not where the provisioner nominated
 * them, so an initialized node can fill up with other pods; one nominated there then fits
 * nowhere it is counted and would wait out the nomination window (20 s) before being placed
 * again — the tail of every scale-out in bench:e2e. Room is checked only on initialized nodes:
 * an in-flight claim or a starting node takes no pods yet, and may not report every resource
 * (a GPU) until it is initialized.
 */
function attachNominated(
  existing: readonly ExistingCapacity[],
  nominated: ReadonlyArray<{ pod: Pod; ref: CapacityRef }>,
  ignored: IgnoredPod[],
): { existing: ExistingCapacity[]; displaced: Pod[] } {
  if (nominated.length === 0) return { existing: [...existing], displaced: [] };
  const byClaim = new Map<string, number>();
  const byNode = new Map<string, number>();
  existing.forEach((e, i) => {
    const claim = e.nodeClaim?.metadata.name;
    if (claim !== undefined) byClaim.set(claim, i);
    if (e.node !== undefined) byNode.set(e.node.metadata.name, i);
  });
  const extra = new Map<number, Pod[]>();
  const room = new Map<number, ResourceList | undefined>();
  const displaced: Pod[] = [];
  for (const { pod, ref } of nominated) {
    const index =
      (ref.nodeClaim === undefined ? undefined : byClaim.get(ref.nodeClaim)) ??
      (ref.node === undefined ? undefined : byNode.get(ref.node));
    if (index === undefined) {
      ignored.push({
        pod: podId(pod),
        reason: `nominated to ${describeCapacity(ref)} by the provisioner, which is not observed yet: left out until the nomination ends`,
      });
      continue;
    }
    if (!room.has(index)) room.set(index, roomOnInitializedNode(existing[index]!));
    const free = room.get(index);
    if (free !== undefined) {
      const requests = podRequests(pod);
      if (!fits(requests, free)) {
        displaced.push(pod);
        continue;
      }
      room.set(index, subtractResources(free, requests));
    }
    ignored.push({
      pod: podId(pod),
      reason: `nominated to ${describeCapacity(ref)} by the provisioner: counted there`,
    });
    const list = extra.get(index);
    if (list === undefined) extra.set(index, [pod]);
    else list.push(pod);
  }
  const out = existing.map((e, i) => {
    const more = extra.get(i);
    return more === undefined ? e : { ...e, pods: [...e.pods, ...more] };
  });
  return { existing: out, displaced };
}

/**
 * What an initialized node has left for pods after the ones bound to it (its allocatable less
 * their requests); undefined for anything else, or a node that reports no allocatable.
 */
function roomOnInitializedNode(capacity: ExistingCapacity): ResourceList | undefined {
  const allocatable = capacity.node?.status?.allocatable;
  if (!capacity.initialized || allocatable === undefined) return undefined;
  let free = parseResourceList(allocatable);
  for (const pod of capacity.pods) {
    if (!isPodTerminal(pod)) free = subtractResources(free, podRequests(pod));
  }
  return free;
}
