import type { Node } from '../../../apis/kubernetes/node.js';
import { DefaultSchedulerName, type Pod } from '../../../apis/kubernetes/pod.js';
import type { Cancel, Timers } from '../../../clock/timers.js';
import { isConflict, isNotFound } from '../../../kube/errors.js';
import { jsonEqual } from '../../../kube/json.js';
import type { MemoryClusterPlugin } from '../../../kube/memory/extensions.js';
import type { MemoryCluster } from '../../../kube/memory/memory-cluster.js';
import type { MergePatch } from '../../../kube/merge-patch.js';
import { formatTime, type KubeObject, type ObjectKey, referenceTo } from '../../../kube/object.js';
import { Namespaces, Nodes, Pods } from '../../../kube/resource-types.js';
import type { Watch, WatchEvent } from '../../../kube/watch.js';
import { type ErrorHandler, rethrowUncaught } from '../../settle/settle.js';
import { cacheKey, ObjectCache } from '../object-cache.js';
import { ReconcileQueue } from '../reconcile-queue.js';
import { DefaultPodInitialBackoffMs, DefaultPodMaxBackoffMs } from './backoff-defaults.js';
import { type BinderVerdict, FitIndex, hasPodAffinity, hasSpread, nodeLocal } from './fit-index.js';
import type { PlacedPod } from './inter-pod-affinity.js';
import { NodeChanges } from './node-changes.js';
import { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import { PodInfoCache } from './pod-info-cache.js';
import { type SchedulingSnapshot, schedulePod } from './schedule-pod.js';

type ScheduleFailure = Extract<BinderVerdict, { scheduled: false }>;

/** Signatures whose FitIndex is kept (least recently used dropped first). */
const FIT_INDEXES = 256;

/** Field manager and event source of the binder's writes, as kube-scheduler's. */
export const SCHEDULER_NAME = DefaultSchedulerName;

/** How the binder behaves. */
export interface PodBinderOptions {
  /** Record Scheduled / FailedScheduling events on pods. Default true. */
  readonly events?: boolean;
  /**
   * kube-scheduler's per-pod backoff. Absent: a parked pod is tried again on every change that
   * may help it, at once (what small tests want).
   */
  readonly backoff?: BinderBackoff;
}

/**
 * kube-scheduler's backoff queue: a pod that failed n times is not tried again until
 * `initialMs * 2^(n-1)` (at most `maxMs`) after its last failure, even when a change moves it
 * out of the unschedulable pods. Without it, a thousand Nodes registering under a thousand
 * pending pods are a million attempts, each rewriting the pod's PodScheduled message.
 */
export interface BinderBackoff {
  readonly timers: Timers;
  /** `podInitialBackoffSeconds`: default 1 s. */
  readonly initialMs?: number;
  /** `podMaxBackoffSeconds`: default 10 s. */
  readonly maxMs?: number;
  /** Where a pass started by a backoff timer reports its failure; default: rethrown uncaught. */
  readonly onError?: ErrorHandler;
}

export { DefaultPodInitialBackoffMs, DefaultPodMaxBackoffMs };

interface PodCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
}

/** Bound to a node and not finished: the pod holds that node's resources. */
function isAssigned(pod: Pod | undefined): pod is Pod {
  if (pod === undefined) return false;
  const phase = pod.status?.phase;
  return (pod.spec.nodeName ?? '') !== '' && phase !== 'Succeeded' && phase !== 'Failed';
}

/** Waiting for the default scheduler: unbound, not finished, not being deleted. */
function isPendingForUs(pod: Pod | undefined): pod is Pod {
  if (pod === undefined) return false;
  const phase = pod.status?.phase;
  return (
    (pod.spec.nodeName ?? '') === '' &&
    (pod.spec.schedulerName ?? DefaultSchedulerName) === DefaultSchedulerName &&
    pod.metadata.deletionTimestamp === undefined &&
    phase !== 'Succeeded' &&
    phase !== 'Failed'
  );
}

function schedulingGates(pod: Pod): unknown[] {
  const gates = (pod.spec as { schedulingGates?: unknown[] }).schedulingGates;
  return gates ?? [];
}

function nodeFacts(node: Node | undefined): unknown {
  if (node === undefined) return undefined;
  return {
    labels: node.metadata.labels ?? {},
    taints: node.spec?.taints ?? [],
    unschedulable: node.spec?.unschedulable ?? false,
    allocatable: node.status?.allocatable ?? node.status?.capacity ?? {},
    ready: node.status?.conditions?.find((c) => c.type === 'Ready')?.status ?? 'Unknown',
  };
}

/**
 * kube-scheduler's default profile as a MemoryCluster plug-in. It watches pods, nodes and
 * namespaces into informer caches; pending pods (unbound, `schedulerName` default-scheduler, not
 * deleting or finished) are scheduled one at a time in queue order (priority desc, creation
 * time, namespace/name) by `schedulePod` (or its signature's FitIndex), each seeing the cluster
 * as it is when its turn comes: the placements before it, and nodes that came or went.
 *
 * A feasible pod is bound (merge patch of `spec.nodeName`, preconditioned on its
 * resourceVersion, as the pods/binding subresource refuses a pod already bound) and gets
 * PodScheduled=True; an infeasible one gets PodScheduled=False reason Unschedulable with
 * kube-scheduler's message (what Karpenter's provisioner looks for) and waits until the cluster
 * changes in a way that may help it: a node added or changed, a bound pod removed, or — for
 * pods with inter-pod affinity or spread constraints — a pod bound or relabelled. Pods with
 * scheduling gates get reason SchedulingGated.
 *
 * With `backoff`, a failed pod also waits out its backoff (see BinderBackoff) before that.
 *
 * Not simulated: preemption, scoring beyond LeastAllocated (balanced allocation, preferred
 * affinities, ScheduleAnyway spread, image locality, PreferNoSchedule taints), volume
 * filters, nominated pods, the 5-minute flush of the unschedulable queue, extenders.
 */
export class PodBinder implements MemoryClusterPlugin {
  readonly name = 'pod-binder';
  readonly #events: boolean;
  readonly #backoff: BinderBackoff | undefined;

  constructor(options: PodBinderOptions = {}) {
    this.#events = options.events ?? true;
    this.#backoff = options.backoff;
  }

  start(cluster: MemoryCluster): () => void {
    const run = new BinderRun(cluster, this.#events, this.#backoff);
    const watches: Watch[] = [
      cluster.watch<KubeObject>(Namespaces, (e) => run.onNamespace(e)),
      cluster.watch<Node>(Nodes, (e) => run.onNode(e)),
      cluster.watch<Pod>(Pods, (e) => run.onPod(e)),
    ];
    return () => {
      for (const w of watches) w.stop();
      run.stop();
    };
  }
}

/** The state of one started binder. */
class BinderRun {
  readonly #cluster: MemoryCluster;
  readonly #events: boolean;
  readonly #pods = new ObjectCache<Pod>();
  readonly #nodes = new ObjectCache<Node>();
  readonly #namespaces = new ObjectCache<KubeObject>();
  readonly #derived = new PodInfoCache();
  readonly #infos = new Map<string, NodeInfo>();
  /** Pods counted in a NodeInfo, by key, with the node they count on. */
  readonly #assigned = new Map<string, PlacedPod>();
  readonly #withAntiAffinity = new Map<string, PlacedPod>();
  readonly #active = new Set<string>();
  readonly #unschedulable = new Set<string>();
  readonly #backoff: BinderBackoff | undefined;
  /** Failed attempts per pending pod, and when each may be tried again (backoff only). */
  readonly #failedAttempts = new Map<string, number>();
  readonly #retryAt = new Map<string, number>();
  /** Moved out of the unschedulable pods but still backing off. */
  readonly #backingOff = new Set<string>();
  #wake: { readonly at: number; readonly cancel: Cancel } | undefined;
  readonly #queue: ReconcileQueue;
  /**
   * Bumped whenever what `schedulePod` reads may have changed (a node, a namespace, a pod counted
   * on a node), so a failure remembered under an older generation is never reused.
   */
  #generation = 0;
  /** Failures of this generation by scheduling signature: replicas of one template fail alike. */
  #failures = new Map<string, ScheduleFailure>();
  /** Every change to a NodeInfo, for the FitIndexes to catch up on. */
  readonly #changes = new NodeChanges(() => this.#infos.size);
  /** Per scheduling signature of node-local pods, in least recently used order. */
  readonly #fits = new Map<string, FitIndex>();
  /** The NodeInfos with a Node, by name; dropped when a Node comes or goes. */
  #sorted: NodeInfo[] | undefined;

  constructor(cluster: MemoryCluster, events: boolean, backoff: BinderBackoff | undefined) {
    this.#cluster = cluster;
    this.#events = events;
    this.#backoff = backoff;
    this.#queue = new ReconcileQueue(() => this.#pass());
  }

  stop(): void {
    this.#wake?.cancel();
    this.#wake = undefined;
  }

  onNamespace(event: WatchEvent<KubeObject>): Promise<void> | undefined {
    const { changed } = this.#namespaces.apply(event);
    if (changed) this.#invalidate();
    if (changed) this.#moveWhere((pod) => hasPodAffinity(pod));
    return this.#kick();
  }

  onNode(event: WatchEvent<Node>): Promise<void> | undefined {
    const { changed, previous, current } = this.#nodes.apply(event);
    if (!changed) return undefined;
    this.#invalidate();
    const name = (current ?? previous)?.metadata.name ?? '';
    const info = this.#info(name);
    if ((info.node === undefined) !== (current === undefined)) this.#sorted = undefined;
    info.setNode(current);
    this.#changes.record(info);
    if (!jsonEqual(nodeFacts(previous), nodeFacts(current)) && current !== undefined)
      this.#moveWhere(() => true);
    return this.#kick();
  }

  onPod(event: WatchEvent<Pod>): Promise<void> | undefined {
    const result = this.#pods.apply(event);
    if (!result.changed) return undefined;
    this.#track(result.previous, result.current);
    return this.#kick();
  }

  /** Accounts a pod's transition: NodeInfos, the queues, and what it means for parked pods. */
  #track(previous: Pod | undefined, current: Pod | undefined): void {
    const key = cacheKey((current ?? previous)!);
    const wasAssigned = this.#assigned.has(key);
    const placed = this.#assigned.get(key);
    if (placed !== undefined) {
      this.#invalidate();
      placed.node.remove(key);
      this.#changes.record(placed.node);
      this.#assigned.delete(key);
      this.#withAntiAffinity.delete(key);
    }
    let info: PodInfo | undefined;
    if (isAssigned(current)) {
      const derived = this.#derived.of(current);
      info = 'info' in derived ? derived.info : undefined;
      if (info !== undefined) {
        this.#invalidate();
        const node = this.#info(current.spec.nodeName!);
        node.add(info);
        this.#changes.record(node);
        const entry = { info, node };
        this.#assigned.set(key, entry);
        if (info.requiredAntiAffinity.length > 0) this.#withAntiAffinity.set(key, entry);
      }
    }
    if (isPendingForUs(current)) {
      const fresh =
        !isPendingForUs(previous) ||
        !jsonEqual(previous.spec, current.spec) ||
        !jsonEqual(previous.metadata.labels ?? {}, current.metadata.labels ?? {});
      if (fresh) {
        this.#unschedulable.delete(key);
        this.#activate(key);
      }
    } else {
      this.#active.delete(key);
      this.#unschedulable.delete(key);
      this.#backingOff.delete(key);
      this.#failedAttempts.delete(key);
      this.#retryAt.delete(key);
    }
    const isNowAssigned = info !== undefined;
    if (wasAssigned && !isNowAssigned) this.#moveWhere(() => true);
    else if (isNowAssigned && (!wasAssigned || !jsonEqual(placed?.info.labels ?? {}, info?.labels ?? {}))) {
      this.#moveWhere((pod) => hasPodAffinity(pod) || hasSpread(pod));
    }
  }

  #invalidate(): void {
    this.#generation++;
    if (this.#failures.size > 0) this.#failures = new Map();
  }

  /**
   * `schedulePod`, reusing the failure of an earlier pod with the same signature when nothing it
   * reads changed since: the result is a pure function of the pod's namespace, labels and spec
   * and of the snapshot, so the reuse writes exactly what a fresh attempt would. Node-local
   * pods are answered by their signature's FitIndex, which gives the same answer.
   */
  #schedule(info: PodInfo, signature: string): BinderVerdict {
    const known = this.#failures.get(signature);
    if (known !== undefined) return known;
    const generation = this.#generation;
    const result =
      this.#withAntiAffinity.size === 0 && nodeLocal(info)
        ? this.#fitIndex(signature, info).schedule(this.#changes, this.#infos.values())
        : schedulePod(info, this.#snapshot());
    if (!result.scheduled && generation === this.#generation) this.#failures.set(signature, result);
    return result;
  }

  #fitIndex(signature: string, info: PodInfo): FitIndex {
    let index = this.#fits.get(signature);
    if (index !== undefined) this.#fits.delete(signature);
    else index = new FitIndex(info);
    this.#fits.set(signature, index);
    if (this.#fits.size > FIT_INDEXES) this.#fits.delete(this.#fits.keys().next().value!);
    return index;
  }

  #info(name: string): NodeInfo {
    let info = this.#infos.get(name);
    if (info === undefined) {
      info = new NodeInfo(name);
      this.#infos.set(name, info);
    }
    return info;
  }

  #moveWhere(predicate: (pod: Pod) => boolean): void {
    for (const key of [...this.#unschedulable]) {
      const pod = this.#pods.get(key);
      if (pod !== undefined && predicate(pod)) {
        this.#unschedulable.delete(key);
        this.#activate(key);
      }
    }
  }

  /** Into the active queue, or, while its backoff lasts, the backoff queue. */
  #activate(key: string): void {
    const at = this.#retryAt.get(key);
    if (at === undefined || at <= this.#cluster.clock.now()) {
      this.#backingOff.delete(key);
      this.#active.add(key);
      return;
    }
    this.#backingOff.add(key);
    this.#armWake(at);
  }

  #armWake(at: number): void {
    if (this.#wake !== undefined && this.#wake.at <= at) return;
    this.#wake?.cancel();
    const backoff = this.#backoff!;
    this.#wake = {
      at,
      cancel: backoff.timers.after(at - this.#cluster.clock.now(), () => this.#flushBackoff()),
    };
  }

  /** Moves the pods whose backoff is over to the active queue, and waits for the next one. */
  #flushBackoff(): void {
    this.#wake = undefined;
    const now = this.#cluster.clock.now();
    let next = Number.POSITIVE_INFINITY;
    for (const key of [...this.#backingOff]) {
      const at = this.#retryAt.get(key) ?? now;
      if (at <= now) {
        this.#backingOff.delete(key);
        this.#active.add(key);
      } else next = Math.min(next, at);
    }
    if (next !== Number.POSITIVE_INFINITY) this.#armWake(next);
    this.#kick()?.catch(this.#backoff?.onError ?? rethrowUncaught);
  }

  /** Counts a failed attempt and starts the pod's backoff. */
  #failed(key: string): void {
    if (this.#backoff === undefined) return;
    const attempts = (this.#failedAttempts.get(key) ?? 0) + 1;
    this.#failedAttempts.set(key, attempts);
    const initial = this.#backoff.initialMs ?? DefaultPodInitialBackoffMs;
    const max = this.#backoff.maxMs ?? DefaultPodMaxBackoffMs;
    this.#retryAt.set(
      key,
      this.#cluster.clock.now() + Math.min(max, initial * 2 ** Math.min(attempts - 1, 30)),
    );
  }

  #kick(): Promise<void> | undefined {
    return this.#active.size > 0 ? this.#queue.enqueue('pass') : undefined;
  }

  async #pass(): Promise<void> {
    while (this.#active.size > 0) {
      const order = [...this.#active]
        .map((key) => this.#pods.get(key))
        .filter(isPendingForUs)
        .sort(
          (a, b) =>
            (b.spec.priority ?? 0) - (a.spec.priority ?? 0) ||
            this.#derived.of(a).createdMs - this.#derived.of(b).createdMs ||
            (cacheKey(a) < cacheKey(b) ? -1 : cacheKey(a) > cacheKey(b) ? 1 : 0),
        );
      this.#active.clear();
      for (const pod of order) {
        const current = this.#pods.get(cacheKey(pod));
        if (!isPendingForUs(current)) continue;
        await this.#attempt(current);
      }
    }
  }

  /**
   * The cluster as a scheduling cycle sees it now: as kube-scheduler, which snapshots its cache
   * at the start of every pod's cycle, a pod sees the nodes that came or went while the pods
   * before it in the same pass were being bound.
   */
  #snapshot(): SchedulingSnapshot {
    this.#sorted ??= [...this.#infos.values()]
      .filter((n) => n.node !== undefined)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return {
      nodes: this.#sorted,
      withAntiAffinity: this.#withAntiAffinity.values(),
      namespaceLabels: (ns) => this.#namespaces.get(ns)?.metadata.labels,
    };
  }

  async #attempt(pod: Pod): Promise<void> {
    const key = cacheKey(pod);
    if (schedulingGates(pod).length > 0) {
      this.#unschedulable.add(key);
      await this.#markUnschedulable(
        pod,
        'SchedulingGated',
        'Scheduling is blocked due to non-empty scheduling gates',
      );
      return;
    }
    const derived = this.#derived.of(pod);
    if ('error' in derived) {
      this.#unschedulable.add(key);
      this.#failed(key);
      await this.#markUnschedulable(pod, 'Unschedulable', derived.error.message);
      return;
    }
    const result = this.#schedule(derived.info, derived.signature);
    if (result.scheduled) {
      await this.#bind(pod, result.node.name);
      return;
    }
    this.#unschedulable.add(key);
    this.#failed(key);
    await this.#markUnschedulable(pod, 'Unschedulable', result.message);
    if (this.#events) {
      await this.#cluster.createEvent({
        involvedObject: referenceTo(pod),
        reason: 'FailedScheduling',
        message: result.message,
        type: 'Warning',
        source: { component: SCHEDULER_NAME },
      });
    }
  }

  async #bind(pod: Pod, nodeName: string): Promise<void> {
    const key = { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? 'default' };
    let bound: Pod;
    try {
      bound = await this.#cluster.patch<Pod>(
        Pods,
        key,
        { spec: { nodeName } },
        { resourceVersion: pod.metadata.resourceVersion ?? '', fieldManager: SCHEDULER_NAME },
      );
    } catch (err) {
      // Changed or gone meanwhile: its watch event brings it back if it still needs placing.
      if (isConflict(err) || isNotFound(err)) return;
      throw err;
    }
    this.#observe(bound);
    const conditions = withCondition(bound, {
      type: 'PodScheduled',
      status: 'True',
      lastProbeTime: null,
      lastTransitionTime: formatTime(this.#cluster.clock.now()),
    });
    try {
      this.#observe(
        await this.#cluster.patchStatus<Pod>(Pods, key, { status: { conditions } } as unknown as MergePatch, {
          resourceVersion: bound.metadata.resourceVersion ?? '',
          fieldManager: SCHEDULER_NAME,
        }),
      );
    } catch (err) {
      if (!isConflict(err) && !isNotFound(err)) throw err;
    }
    if (this.#events) {
      await this.#cluster.createEvent({
        involvedObject: referenceTo(bound),
        reason: 'Scheduled',
        message: `Successfully assigned ${key.namespace}/${key.name} to ${nodeName}`,
        type: 'Normal',
        source: { component: SCHEDULER_NAME },
      });
    }
  }

  async #markUnschedulable(pod: Pod, reason: string, message: string): Promise<void> {
    let current: Pod | undefined = pod;
    for (let attempt = 0; attempt < 5 && isPendingForUs(current); attempt++) {
      const existing = current.status?.conditions?.find((c) => c.type === 'PodScheduled');
      if (existing?.status === 'False' && existing.reason === reason && existing.message === message) return;
      const conditions = withCondition(current, {
        type: 'PodScheduled',
        status: 'False',
        reason,
        message,
        lastProbeTime: null,
        lastTransitionTime:
          existing?.status === 'False' && existing.lastTransitionTime !== undefined
            ? existing.lastTransitionTime
            : formatTime(this.#cluster.clock.now()),
      });
      const key: ObjectKey = {
        name: current.metadata.name ?? '',
        namespace: current.metadata.namespace ?? 'default',
      };
      try {
        this.#observe(
          await this.#cluster.patchStatus<Pod>(
            Pods,
            key,
            { status: { conditions } } as unknown as MergePatch,
            { resourceVersion: current.metadata.resourceVersion ?? '', fieldManager: SCHEDULER_NAME },
          ),
        );
        return;
      } catch (err) {
        if (isNotFound(err)) return;
        if (!isConflict(err)) throw err;
      }
      try {
        current = await this.#cluster.get<Pod>(Pods, key);
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
      this.#observe(current);
    }
  }

  /** Records the binder's own write in its caches before the watch reports it. */
  #observe(pod: Pod): void {
    const result = this.#pods.observe(pod);
    if (result.changed) this.#track(result.previous, result.current);
  }
}

function withCondition(pod: Pod, condition: PodCondition): PodCondition[] {
  const others = (pod.status?.conditions ?? []).filter((c) => c.type !== condition.type) as PodCondition[];
  return [...others, condition];
}
