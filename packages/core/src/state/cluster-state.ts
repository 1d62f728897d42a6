import type { Registry } from 'prom-client';
import { z } from 'zod';
import { type DaemonSet, daemonSetSchema } from '../apis/kubernetes/daemon-set.js';
import { type Node, nodeSchema } from '../apis/kubernetes/node.js';
import { type PersistentVolume, persistentVolumeSchema } from '../apis/kubernetes/persistent-volume.js';
import {
  type PersistentVolumeClaim,
  persistentVolumeClaimSchema,
} from '../apis/kubernetes/persistent-volume-claim.js';
import { type Pod, podSchema } from '../apis/kubernetes/pod.js';
import { type StorageClass, storageClassSchema } from '../apis/kubernetes/storage-class.js';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import { type NodePool, nodePoolSchema } from '../apis/v1/nodepool.js';
import type { Clock } from '../clock/clock.js';
import type { InstanceType } from '../cloudprovider/instance-type.js';
import type { KubeObject } from '../kube/object.js';
import { isPodTerminal, isPodTerminating } from '../kube/pod.js';
import type { ClusterPort } from '../kube/port.js';
import { NodeClaims, Nodes } from '../kube/resource-types.js';
import { ConditionTypes, isConditionTrue } from '../lifecycle/conditions.js';
import type { InformerEvent } from '../operator/runtime/informer.js';
import { keyString } from '../operator/runtime/keys.js';
import { ResourceListMemo } from '../scheduling/resources/resource-list-memo.js';
import { isInitializedNode } from './capacity.js';
import { CapacityReuse } from './capacity-reuse.js';
import { registerClusterStateMetrics } from './metrics.js';
import { DefaultNominationWindowMs, Nominations } from './nominations.js';
import { PodSchedulingTimes } from './pod-scheduling-times.js';
import {
  buildSolverInput,
  type CapacityRef,
  type ClusterObjects,
  type SolverSnapshot,
  type SolverSnapshotOptions,
} from './snapshot.js';

/** The kinds cluster state follows; `clusterStateController` watches each of them. */
export type StateKind =
  | 'Pod'
  | 'Node'
  | 'NodeClaim'
  | 'NodePool'
  | 'DaemonSet'
  | 'PersistentVolumeClaim'
  | 'PersistentVolume'
  | 'StorageClass';

/** An object its schema rejects, kept so the provisioner can say so instead of crashing. */
export interface InvalidObject {
  readonly object: KubeObject;
  /** The schema's message (`z.prettifyError`). */
  readonly message: string;
}

/** How ClusterState is built. */
export interface ClusterStateOptions {
  readonly clock: Clock;
  /** Where `karpenter_cluster_state_node_count` goes; none when absent. */
  readonly registry?: Registry;
  /** How long a nomination lasts unless its pod binds; default 20 s (Karpenter's). */
  readonly nominationWindowMs?: number;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function parseWith<T>(schema: z.ZodType<T>, object: unknown): Parsed<T> {
  const parsed = schema.safeParse(object);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, message: z.prettifyError(parsed.error) };
}

/**
 * The pod schema with `spec` taken as it is: for a new version of a pod whose `spec` is the very
 * object the last version had (the in-memory cluster shares unchanged parts between versions,
 * and freezes them), which was validated then; its parsed spec is reused.
 */
const podWithoutSpecSchema = podSchema.extend({ spec: z.unknown() });

function keyOfObject(object: KubeObject): string {
  const { name = '', namespace } = object.metadata;
  return keyString(namespace === undefined ? { name } : { name, namespace });
}

/**
 * What the controllers know about the cluster, fed by the shared informers (see
 * `clusterStateController`): Nodes, NodeClaims, Pods (with an index of the pods bound to each
 * node), NodePools, DaemonSets, PVCs, PVs and StorageClasses — each parsed by its schema once
 * per change, so a snapshot costs no parsing and no API call. Objects a schema rejects are kept
 * apart (`invalidPods`, `invalidNodePools`); Nodes that do not parse are kept as delivered
 * (their capacity must count) and NodeClaims are taken as delivered (their schema is strict
 * about fields a newer API server may add).
 *
 * Besides the objects it keeps what only the controllers know: nominations (pods the
 * provisioner placed on in-flight claims or existing nodes, counted there until they bind or
 * the window passes, or while a claim they are nominated to is still on its way) and nodes
 * marked for deletion by disruption.
 */
export class ClusterState {
  readonly #clock: Clock;
  readonly #nominations: Nominations;
  readonly #pods = new Map<string, Pod>();
  /** Each pod's last `spec` as delivered (when frozen) and as parsed. */
  readonly #podSpecs = new Map<string, { readonly delivered: unknown; readonly parsed: Pod['spec'] }>();
  readonly #invalidPods = new Map<string, InvalidObject>();
  readonly #boundTo = new Map<string, string>();
  readonly #bound = new Map<string, Set<string>>();
  readonly #nodes = new Map<string, Node>();
  readonly #nodeClaims = new Map<string, NodeClaim>();
  readonly #nodePools = new Map<string, NodePool>();
  readonly #invalidNodePools = new Map<string, InvalidObject>();
  readonly #daemonSets = new Map<string, DaemonSet>();
  /** `#daemonSets` as a list, kept while none changes: solver caches key on the array. */
  #daemonSetList: readonly DaemonSet[] | undefined;
  readonly #capacity = new CapacityReuse();
  readonly #resourceLists = new ResourceListMemo();
  readonly #claims = new Map<string, PersistentVolumeClaim>();
  readonly #volumes = new Map<string, PersistentVolume>();
  readonly #storageClasses = new Map<string, StorageClass>();
  readonly #marked = new Set<string>();
  #generation = 0;
  /**
   * The provisioner's milestones per pod (ack, decision, placement), for the pod metrics, which
   * forget a pod's once it has started or finished; forgotten here when the pod is gone.
   */
  readonly schedulingTimes = new PodSchedulingTimes();

  constructor(options: ClusterStateOptions) {
    this.#clock = options.clock;
    if (options.registry !== undefined) registerClusterStateMetrics(options.registry, () => this.nodeCount());
    this.#nominations = new Nominations(options.nominationWindowMs ?? DefaultNominationWindowMs, (target) =>
      this.#onItsWay(target),
    );
  }

  /**
   * Whether a nomination's target is a NodeClaim still on its way: present, not being deleted,
   * not initialized. Such a nomination outlives its window. Placing the pod again would find
   * the same room: before launch a claim offers only the requests it was made for, after it
   * the launched type's allocatable, so the pods nominated there still fit. Letting it lapse
   * every 20 s while the node registers made each pod flip between counted and pending, and
   * every flip started a new provisioning solve and a disruption pass over the whole cluster.
   */
  #onItsWay(target: CapacityRef): boolean {
    if (target.nodeClaim === undefined) return false;
    const claim = this.#nodeClaims.get(target.nodeClaim);
    return (
      claim !== undefined && claim.metadata.deletionTimestamp === undefined && !isInitializedClaim(claim)
    );
  }

  /**
   * A count that moves with every change to what the state holds or decides: an object applied
   * (heartbeats too), pods nominated, deletion marks set or lifted. Two reads that return the
   * same count see the same objects, marks and nominations, except for pod nominations whose
   * window closed in between: time alone ends those (see nextNominationExpiry). Lets a reader
   * that polls (the disruption controller, every 10 s) skip rebuilding what it derives.
   */
  generation(): number {
    return this.#generation;
  }

  /** Applies one informer event of the given kind. */
  apply(kind: StateKind, event: InformerEvent): void {
    this.#generation++;
    const object = event.object;
    const key = keyOfObject(object);
    const deleted = event.type === 'DELETED';
    switch (kind) {
      case 'Pod':
        this.#applyPod(key, object, deleted);
        return;
      case 'Node':
        this.#applyNode(key, object, deleted);
        return;
      case 'NodeClaim':
        this.#applyNodeClaim(key, object as NodeClaim, deleted);
        return;
      case 'NodePool':
        this.#applyNodePool(key, object, deleted);
        return;
      case 'DaemonSet':
        setParsed(this.#daemonSets, key, deleted ? undefined : parseWith(daemonSetSchema, object));
        this.#daemonSetList = undefined;
        return;
      case 'PersistentVolumeClaim':
        setParsed(this.#claims, key, deleted ? undefined : parseWith(persistentVolumeClaimSchema, object));
        return;
      case 'PersistentVolume':
        setParsed(this.#volumes, key, deleted ? undefined : parseWith(persistentVolumeSchema, object));
        return;
      case 'StorageClass':
        setParsed(this.#storageClasses, key, deleted ? undefined : parseWith(storageClassSchema, object));
        return;
    }
  }

  // ---- reads ----

  /** Every object the state holds, in the shape `buildSolverInput` takes (valid pods only). */
  objects(): ClusterObjects {
    return {
      pods: [...this.#pods.values()],
      nodes: [...this.#nodes.values()],
      nodeClaims: [...this.#nodeClaims.values()],
      nodePools: [...this.#nodePools.values()],
      daemonSets: this.#daemonSetsListed(),
      persistentVolumeClaims: [...this.#claims.values()],
      persistentVolumes: [...this.#volumes.values()],
      storageClasses: [...this.#storageClasses.values()],
    };
  }

  #daemonSetsListed(): readonly DaemonSet[] {
    if (this.#daemonSetList === undefined) this.#daemonSetList = [...this.#daemonSets.values()];
    return this.#daemonSetList;
  }

  /**
   * The provisioning snapshot of the current state: `buildSolverInput` over `objects()`, with
   * the state's nominations (at the clock's now) and deletion marks filled in. The caller's
   * `nominatedTo` and `markedForDeletion`, if given, are ignored: the state's own apply. A piece
   * of capacity unchanged since the last snapshot is the same object as then (CapacityReuse).
   */
  snapshot(
    instanceTypesByPool: ReadonlyMap<string, readonly InstanceType[]>,
    options: SolverSnapshotOptions = {},
  ): SolverSnapshot {
    const now = this.#clock.now();
    this.#nominations.prune(now);
    const snapshot = buildSolverInput(this.objects(), instanceTypesByPool, {
      ...options,
      nominatedTo: (pod) => this.#nominations.targetOf(pod, now),
      markedForDeletion: this.#markedNow(),
      resourceLists: this.#resourceLists,
    });
    const existing = this.#capacity.reuse(snapshot.input.existing);
    return { ...snapshot, input: { ...snapshot.input, existing } };
  }

  pod(namespace: string, name: string): Pod | undefined {
    return this.#pods.get(`${namespace}/${name}`);
  }

  pods(): Pod[] {
    return [...this.#pods.values()];
  }

  /** The pods bound to this node (by `spec.nodeName`), finished ones included. */
  podsOn(nodeName: string): Pod[] {
    const keys = this.#bound.get(nodeName);
    if (keys === undefined) return [];
    return [...keys].flatMap((k) => {
      const pod = this.#pods.get(k);
      return pod === undefined ? [] : [pod];
    });
  }

  /** Pods their schema rejects, with the reason; never part of a snapshot. */
  invalidPods(): InvalidObject[] {
    return [...this.#invalidPods.values()];
  }

  node(name: string): Node | undefined {
    return this.#nodes.get(name);
  }

  nodes(): Node[] {
    return [...this.#nodes.values()];
  }

  nodeClaim(name: string): NodeClaim | undefined {
    return this.#nodeClaims.get(name);
  }

  nodeClaims(): NodeClaim[] {
    return [...this.#nodeClaims.values()];
  }

  nodePool(name: string): NodePool | undefined {
    return this.#nodePools.get(name);
  }

  /** Valid NodePools, whatever their readiness. */
  nodePools(): NodePool[] {
    return [...this.#nodePools.values()];
  }

  /** NodePools their schema rejects, with the reason. */
  invalidNodePools(): InvalidObject[] {
    return [...this.#invalidNodePools.values()];
  }

  /**
   * Nodes plus NodeClaims that have no Node yet: the capacity the cluster has or is launching
   * (`karpenter_cluster_state_node_count`).
   */
  nodeCount(): number {
    const providerIds = new Set<string>();
    for (const node of this.#nodes.values()) if (node.spec?.providerID) providerIds.add(node.spec.providerID);
    let count = this.#nodes.size;
    for (const claim of this.#nodeClaims.values()) {
      const nodeName = claim.status?.nodeName;
      const providerId = claim.status?.providerID;
      if (nodeName !== undefined && this.#nodes.has(nodeName)) continue;
      if (providerId !== undefined && providerIds.has(providerId)) continue;
      count++;
    }
    return count;
  }

  /**
   * Whether the state has seen every Node and NodeClaim the API server lists now. The
   * provisioner waits for this before deciding (as Karpenter's cluster-state sync check does),
   * so capacity created a moment ago — or not delivered yet after a restart — is not launched
   * a second time.
   */
  async synced(cluster: ClusterPort): Promise<boolean> {
    const [claims, nodes] = await Promise.all([cluster.list(NodeClaims), cluster.list(Nodes)]);
    return (
      claims.items.every((c) => this.#nodeClaims.has(c.metadata.name ?? '')) &&
      nodes.items.every((n) => this.#nodes.has(n.metadata.name))
    );
  }

  // ---- nominations ----

  /** Nominates pods to the capacity the provisioner placed them on (see Nominations). */
  nominate(pods: readonly Pod[], target: CapacityRef): void {
    const now = this.#clock.now();
    this.#generation++;
    for (const pod of pods) this.#nominations.nominate(pod, target, now);
  }

  /** Where the pod is nominated now, if it is. */
  nominationOf(pod: Pod): CapacityRef | undefined {
    return this.#nominations.targetOf(pod, this.#clock.now());
  }

  /**
   * Whether the pod is nominated to a Node kube-scheduler may already bind it to: an initialized
   * one (see isInitializedNode), named by the nomination or by its NodeClaim's `status.nodeName`.
   * A pod still pending there was refused by kube-scheduler, most often because other pods took
   * the room, so the provisioner looks at it again rather than wait out the nomination (the
   * snapshot then places it afresh if the room is gone; see buildSolverInput).
   */
  isNominatedToInitializedNode(pod: Pod): boolean {
    const ref = this.nominationOf(pod);
    if (ref === undefined) return false;
    const claimed = ref.nodeClaim === undefined ? undefined : this.#nodeClaims.get(ref.nodeClaim);
    const nodeName = claimed?.status?.nodeName ?? ref.node;
    const node = nodeName === undefined ? undefined : this.#nodes.get(nodeName);
    if (node === undefined) return false;
    const claim =
      claimed ?? [...this.#nodeClaims.values()].find((c) => c.status?.nodeName === node.metadata.name);
    return isInitializedNode(node, claim);
  }

  /** Whether a node or claim of this name had pods nominated to it within the window. */
  isNominated(name: string): boolean {
    return this.#nominations.isTargetNominated(name, this.#clock.now());
  }

  /** When the next pod nomination still on ends (ms since the epoch), if any. */
  nextNominationExpiry(): number | undefined {
    return this.#nominations.nextExpiry(this.#clock.now());
  }

  // ---- deletion marks ----

  /** Marks Nodes or NodeClaims (by name) as decided for deletion: they take no new pods. */
  markForDeletion(...names: string[]): void {
    this.#generation++;
    for (const name of names) this.#marked.add(name);
  }

  /** Takes the marks off again (a disruption command rolled back). */
  unmarkForDeletion(...names: string[]): void {
    this.#generation++;
    for (const name of names) this.#marked.delete(name);
  }

  /** Marked for deletion, or being deleted (deletionTimestamp on the Node or its NodeClaim). */
  isMarkedForDeletion(name: string): boolean {
    if (this.#marked.has(name)) return true;
    return (
      this.#nodes.get(name)?.metadata.deletionTimestamp !== undefined ||
      this.#nodeClaims.get(name)?.metadata.deletionTimestamp !== undefined
    );
  }

  #markedNow(): ReadonlySet<string> {
    return new Set(this.#marked);
  }

  // ---- appliers ----

  #applyPod(key: string, object: KubeObject, deleted: boolean): void {
    const before = this.#boundTo.get(key);
    if (before !== undefined) {
      this.#bound.get(before)?.delete(key);
      if (this.#bound.get(before)?.size === 0) this.#bound.delete(before);
      this.#boundTo.delete(key);
    }
    if (deleted) {
      this.#pods.delete(key);
      this.#podSpecs.delete(key);
      this.#invalidPods.delete(key);
      this.#nominations.release(object as Pod);
      this.schedulingTimes.forget(key);
      return;
    }
    const parsed = this.#parsePod(key, object);
    if (!parsed.ok) {
      this.#pods.delete(key);
      this.#podSpecs.delete(key);
      this.#invalidPods.set(key, { object, message: parsed.message });
      return;
    }
    const pod = parsed.value;
    this.#invalidPods.delete(key);
    this.#pods.set(key, pod);
    const nodeName = pod.spec.nodeName;
    if (nodeName !== undefined && nodeName !== '') {
      this.#boundTo.set(key, nodeName);
      const set = this.#bound.get(nodeName) ?? new Set<string>();
      set.add(key);
      this.#bound.set(nodeName, set);
      this.#nominations.release(pod);
    } else if (isPodTerminal(pod) || isPodTerminating(pod)) {
      this.#nominations.release(pod);
    }
  }

  /** podSchema's parse, reusing the last parsed spec when the spec is the same frozen object. */
  #parsePod(key: string, object: KubeObject): Parsed<Pod> {
    const spec = (object as { spec?: unknown }).spec;
    const last = this.#podSpecs.get(key);
    if (last !== undefined && last.delivered === spec) {
      const rest = parseWith(podWithoutSpecSchema, object);
      return rest.ok ? { ok: true, value: { ...rest.value, spec: last.parsed } as Pod } : rest;
    }
    const parsed = parseWith(podSchema, object);
    if (parsed.ok && typeof spec === 'object' && spec !== null && Object.isFrozen(spec))
      this.#podSpecs.set(key, { delivered: spec, parsed: parsed.value.spec });
    else this.#podSpecs.delete(key);
    return parsed;
  }

  #applyNode(key: string, object: KubeObject, deleted: boolean): void {
    if (deleted) {
      this.#nodes.delete(key);
      this.#marked.delete(key);
      this.#nominations.releaseTarget(key);
    } else {
      const parsed = parseWith(nodeSchema, object);
      const node = parsed.ok ? parsed.value : ({ spec: {}, ...object } as Node);
      this.#nodes.set(key, node);
      if (node.metadata.deletionTimestamp !== undefined) this.#nominations.releaseTarget(key);
    }
  }

  #applyNodeClaim(key: string, claim: NodeClaim, deleted: boolean): void {
    if (deleted) {
      this.#nodeClaims.delete(key);
      this.#marked.delete(key);
      this.#nominations.releaseTarget(key);
      return;
    }
    const before = this.#nodeClaims.get(key);
    this.#nodeClaims.set(key, claim);
    if (claim.metadata.deletionTimestamp !== undefined) this.#nominations.releaseTarget(key);
    else if (isInitializedClaim(claim) && before !== undefined && !isInitializedClaim(before))
      // The hold (#onItsWay) ends here; the pods still get a window to bind in, as a pod
      // nominated to a node that is up does, rather than turning pending the moment it is up.
      this.#nominations.renewTarget(key, this.#clock.now());
  }

  #applyNodePool(key: string, object: KubeObject, deleted: boolean): void {
    this.#nodePools.delete(key);
    this.#invalidNodePools.delete(key);
    if (deleted) return;
    const parsed = parseWith(nodePoolSchema, object);
    if (parsed.ok) this.#nodePools.set(key, parsed.value);
    else this.#invalidNodePools.set(key, { object, message: parsed.message });
  }
}

/** Stores a parsed object, drops a deleted or invalid one. */
function setParsed<T>(map: Map<string, T>, key: string, parsed: Parsed<T> | undefined): void {
  if (parsed?.ok === true) map.set(key, parsed.value);
  else map.delete(key);
}

function isInitializedClaim(claim: NodeClaim): boolean {
  return isConditionTrue(claim.status?.conditions, ConditionTypes.Initialized);
}
