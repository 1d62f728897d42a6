import { durationMs } from '../../../apis/common/duration.js';
import type { Node } from '../../../apis/kubernetes/node.js';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import type { Clock } from '../../../clock/clock.js';
import type { Cancel, Timers } from '../../../clock/timers.js';
import { isConflict, isNotFound } from '../../../kube/errors.js';
import type { MemoryClusterPlugin } from '../../../kube/memory/extensions.js';
import type { MemoryCluster } from '../../../kube/memory/memory-cluster.js';
import type { MergePatch } from '../../../kube/merge-patch.js';
import { formatTime, type ObjectKey, parseTime } from '../../../kube/object.js';
import { isPodTerminal } from '../../../kube/pod.js';
import { Nodes, Pods } from '../../../kube/resource-types.js';
import type { Watch } from '../../../kube/watch.js';
import { type LatencySpec, sampleLatency } from '../../latency/latency.js';
import type { Random } from '../../random/random.js';
import { type ErrorHandler, rethrowUncaught } from '../../settle/settle.js';
import { cacheKey, ObjectCache } from '../object-cache.js';

/** Pod annotation: how long the pod's containers run before exiting 0 (`10m`, `1h30m`). */
export const RunForAnnotation = 'sim.nodewright.dev/run-for';

/** Field manager of the simulated kubelet's pod writes. */
export const KUBELET_MANAGER = 'kubelet';

/** How simulated kubelets behave. */
export interface KubeletSimulatorOptions {
  readonly clock: Clock;
  readonly timers: Timers;
  readonly random: Random;
  /** From a pod being bound (and its node existing) to it Running. Default 0. */
  readonly startDelay?: LatencySpec;
  /** From Running to Ready. Default 0. */
  readonly readyDelay?: LatencySpec;
  /**
   * How long a pod being deleted takes to go: `immediate` (default), `grace-period` (its
   * deletionGracePeriodSeconds), or a latency.
   */
  readonly shutdown?: 'immediate' | 'grace-period' | LatencySpec;
  /** Pods bound to a node that does not exist are deleted after this long (PodGC). Default 40 s. */
  readonly orphanGracePeriodMs?: number;
  readonly onError?: ErrorHandler;
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
}

function keyOfPod(pod: Pod): ObjectKey {
  return { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? 'default' };
}

/**
 * The kubelets of every node (and the pod garbage collector) as one MemoryCluster plug-in:
 * - a pod bound to an existing node goes Running after `startDelay` and Ready after
 *   `readyDelay` (conditions, startTime and container statuses as a kubelet reports them);
 * - a running pod whose restartPolicy is not Always and that carries the run-for annotation
 *   exits 0 after that long: phase Succeeded, not Ready;
 * - a bound pod being deleted (graceful deletion, or held by finalizers) is removed with
 *   grace 0 after the `shutdown` delay;
 * - when a node is deleted, its pods are deleted at once (force, grace 0); a pod bound to a
 *   node that never shows up is deleted after `orphanGracePeriodMs`.
 * Containers never crash and probes are not simulated.
 */
export class KubeletSimulator implements MemoryClusterPlugin {
  readonly name = 'kubelet-simulator';
  readonly #o: KubeletSimulatorOptions;

  constructor(options: KubeletSimulatorOptions) {
    this.#o = options;
  }

  start(cluster: MemoryCluster): () => void {
    const run = new KubeletRun(cluster, this.#o);
    return () => run.stop();
  }
}

class KubeletRun {
  readonly #cluster: MemoryCluster;
  readonly #o: KubeletSimulatorOptions;
  readonly #onError: ErrorHandler;
  /** Indexed by node name: a Node arriving or going concerns its own pods only. */
  readonly #pods = new ObjectCache<Pod>({ index: (pod) => pod.spec.nodeName || undefined });
  readonly #nodes = new ObjectCache<Node>();
  /** Timers per pod uid and purpose (start, ready, finish, shutdown, orphan): each runs once per pod. */
  readonly #timers = new Map<string, Map<string, Cancel>>();
  readonly #watches: Watch[];

  constructor(cluster: MemoryCluster, options: KubeletSimulatorOptions) {
    this.#cluster = cluster;
    this.#o = options;
    this.#onError = options.onError ?? rethrowUncaught;
    this.#watches = [
      cluster.watch<Node>(Nodes, (event) => {
        const { changed, previous, current } = this.#nodes.apply(event);
        if (!changed) return undefined;
        if (current === undefined && previous !== undefined) return this.#nodeGone(previous.metadata.name);
        if (current !== undefined && previous === undefined) {
          for (const pod of this.#pods.byIndex(current.metadata.name)) this.#observe(undefined, pod);
        }
        return undefined;
      }),
      cluster.watch<Pod>(Pods, (event) => {
        const { changed, previous, current } = this.#pods.apply(event);
        if (changed) this.#observe(previous, current);
      }),
    ];
  }

  stop(): void {
    for (const w of this.#watches) w.stop();
    for (const timers of this.#timers.values()) for (const cancel of timers.values()) cancel();
    this.#timers.clear();
  }

  #observe(previous: Pod | undefined, pod: Pod | undefined): void {
    if (pod === undefined) {
      this.#cancelAll(previous?.metadata.uid ?? '');
      return;
    }
    const uid = pod.metadata.uid ?? '';
    const nodeName = pod.spec.nodeName ?? '';
    if (nodeName === '') return;
    if (pod.metadata.deletionTimestamp !== undefined) {
      this.#cancel(uid, 'start');
      this.#cancel(uid, 'ready');
      this.#cancel(uid, 'finish');
      this.#once(uid, 'shutdown', this.#shutdownDelay(pod), () => this.#delete(pod));
      return;
    }
    if (isPodTerminal(pod)) return;
    if (this.#nodes.get(nodeName) === undefined) {
      this.#once(uid, 'orphan', this.#o.orphanGracePeriodMs ?? 40_000, () => this.#collectOrphan(pod));
      return;
    }
    this.#cancel(uid, 'orphan');
    const phase = pod.status?.phase ?? 'Pending';
    if (phase === 'Pending') {
      // Without a readiness delay the pod is reported Running and Ready in one status write.
      const readyAtStart = (this.#o.readyDelay ?? 0) === 0;
      this.#once(uid, 'start', sampleLatency(this.#o.startDelay ?? 0, this.#o.random), () =>
        this.#write(pod, (latest, now) => this.#runningStatus(latest, now, readyAtStart)),
      );
      return;
    }
    if (phase !== 'Running') return;
    const ready = pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
    if (!ready) {
      this.#once(uid, 'ready', sampleLatency(this.#o.readyDelay ?? 0, this.#o.random), () =>
        this.#write(pod, (latest, now) => this.#runningStatus(latest, now, true)),
      );
    }
    const runFor = this.#runFor(pod);
    if (runFor !== undefined) {
      // Seen entering Running now: count from now; seen already running (a restart): from startTime.
      const justStarted = previous?.status?.phase !== 'Running';
      const startTime = pod.status?.startTime;
      const from = justStarted || startTime === undefined ? this.#o.clock.now() : parseTime(startTime);
      this.#once(uid, 'finish', from + runFor - this.#o.clock.now(), () =>
        this.#write(pod, (latest, now) => this.#completedStatus(latest, now)),
      );
    }
  }

  #runFor(pod: Pod): number | undefined {
    const text = pod.metadata.annotations?.[RunForAnnotation];
    if (text === undefined) return undefined;
    if (((pod.spec as { restartPolicy?: string }).restartPolicy ?? 'Always') === 'Always') return undefined;
    const ms = durationMs(text);
    return ms === undefined || !Number.isFinite(ms) ? undefined : ms;
  }

  #shutdownDelay(pod: Pod): number {
    const shutdown = this.#o.shutdown ?? 'immediate';
    if (shutdown === 'immediate') return 0;
    if (shutdown === 'grace-period') {
      const deadline = pod.metadata.deletionTimestamp;
      const grace = (pod.metadata as { deletionGracePeriodSeconds?: number }).deletionGracePeriodSeconds;
      if (grace !== undefined) return grace * 1000;
      return deadline === undefined ? 0 : Math.max(0, parseTime(deadline) - this.#o.clock.now());
    }
    return sampleLatency(shutdown, this.#o.random);
  }

  #runningStatus(pod: Pod, now: string, ready: boolean): MergePatch {
    const readyStatus = ready ? 'True' : 'False';
    const conditions = setConditions(pod, now, {
      PodScheduled: 'True',
      Initialized: 'True',
      ContainersReady: readyStatus,
      Ready: readyStatus,
    });
    return {
      status: {
        phase: 'Running',
        startTime: pod.status?.startTime ?? now,
        hostIP: '10.0.0.1',
        conditions,
        containerStatuses: pod.spec.containers.map((c) => ({
          name: c.name,
          ready,
          started: true,
          restartCount: 0,
          image: c.image ?? '',
          state: { running: { startedAt: pod.status?.startTime ?? now } },
        })),
      },
    } as unknown as MergePatch;
  }

  #completedStatus(pod: Pod, now: string): MergePatch {
    const conditions = setConditions(pod, now, { ContainersReady: 'False', Ready: 'False' }, 'PodCompleted');
    return {
      status: {
        phase: 'Succeeded',
        conditions,
        containerStatuses: pod.spec.containers.map((c) => ({
          name: c.name,
          ready: false,
          started: false,
          restartCount: 0,
          image: c.image ?? '',
          state: {
            terminated: {
              exitCode: 0,
              reason: 'Completed',
              startedAt: pod.status?.startTime ?? now,
              finishedAt: now,
            },
          },
        })),
      },
    } as unknown as MergePatch;
  }

  /** Patches the pod's status from its latest state, retrying lost races; a pod gone or replaced is left alone. */
  #write(scheduled: Pod, patch: (latest: Pod, now: string) => MergePatch): void {
    const uid = scheduled.metadata.uid;
    const attempt = async (): Promise<void> => {
      for (let i = 0; i < 5; i++) {
        const pod = this.#pods.get(cacheKey(scheduled));
        if (pod === undefined || pod.metadata.uid !== uid || pod.metadata.deletionTimestamp !== undefined)
          return;
        try {
          const updated = await this.#cluster.patchStatus<Pod>(
            Pods,
            keyOfPod(pod),
            patch(pod, formatTime(this.#o.clock.now())),
            { resourceVersion: pod.metadata.resourceVersion ?? '', fieldManager: KUBELET_MANAGER },
          );
          const result = this.#pods.observe(updated);
          if (result.changed) this.#observe(result.previous, result.current);
          return;
        } catch (err) {
          if (isNotFound(err)) return;
          if (!isConflict(err)) throw err;
          const fresh = await this.#cluster.get<Pod>(Pods, keyOfPod(pod)).catch((e: unknown) => {
            if (isNotFound(e)) return undefined;
            throw e;
          });
          if (fresh === undefined) return;
          this.#pods.observe(fresh);
        }
      }
    };
    attempt().catch(this.#onError);
  }

  #delete(pod: Pod): void {
    this.#cluster
      .delete(Pods, keyOfPod(pod), { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid ?? '' } })
      .catch((err: unknown) => {
        if (!isNotFound(err) && !isConflict(err)) this.#onError(err);
      });
  }

  async #nodeGone(nodeName: string): Promise<void> {
    for (const pod of this.#pods.byIndex(nodeName)) {
      try {
        await this.#cluster.delete(Pods, keyOfPod(pod), {
          gracePeriodSeconds: 0,
          preconditions: { uid: pod.metadata.uid ?? '' },
        });
      } catch (err) {
        if (!isNotFound(err) && !isConflict(err)) throw err;
      }
    }
  }

  #collectOrphan(pod: Pod): void {
    const nodeName = pod.spec.nodeName ?? '';
    this.#cluster
      .get(Nodes, { name: nodeName })
      .then(
        () => undefined,
        (err: unknown) => {
          if (!isNotFound(err)) throw err;
          return this.#cluster.delete(Pods, keyOfPod(pod), {
            gracePeriodSeconds: 0,
            preconditions: { uid: pod.metadata.uid ?? '' },
          });
        },
      )
      .catch((err: unknown) => {
        if (!isNotFound(err) && !isConflict(err)) this.#onError(err);
      });
  }

  #once(uid: string, purpose: string, delayMs: number, fn: () => void): void {
    let timers = this.#timers.get(uid);
    if (timers === undefined) {
      timers = new Map();
      this.#timers.set(uid, timers);
    }
    if (timers.has(purpose)) return;
    const map = timers;
    map.set(
      purpose,
      this.#o.timers.after(delayMs, () => {
        // Stays marked as done, so a stale event seen before the write lands does not redo it.
        map.set(purpose, () => {});
        fn();
      }),
    );
  }

  #cancel(uid: string, purpose: string): void {
    const timers = this.#timers.get(uid);
    const cancel = timers?.get(purpose);
    if (cancel === undefined) return;
    cancel();
    timers!.delete(purpose);
  }

  #cancelAll(uid: string): void {
    const timers = this.#timers.get(uid);
    if (timers === undefined) return;
    for (const cancel of timers.values()) cancel();
    this.#timers.delete(uid);
  }
}

function setConditions(
  pod: Pod,
  now: string,
  wanted: Readonly<Record<string, string>>,
  reason?: string,
): Condition[] {
  const out: Condition[] = [];
  const existing = (pod.status?.conditions ?? []) as Condition[];
  for (const c of existing) if (!(c.type in wanted)) out.push(c);
  for (const [type, status] of Object.entries(wanted)) {
    const prior = existing.find((c) => c.type === type);
    out.push({
      type,
      status,
      ...(reason !== undefined && status === 'False' ? { reason } : {}),
      lastProbeTime: null,
      lastTransitionTime:
        prior?.status === status && prior.lastTransitionTime ? prior.lastTransitionTime : now,
    });
  }
  return out;
}
