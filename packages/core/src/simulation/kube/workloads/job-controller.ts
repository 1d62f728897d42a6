import type { Pod } from '../../../apis/kubernetes/pod.js';
import type { Clock } from '../../../clock/clock.js';
import type { Cancel, Timers } from '../../../clock/timers.js';
import { isConflict, isNotFound } from '../../../kube/errors.js';
import { jsonEqual } from '../../../kube/json.js';
import type { MemoryClusterPlugin } from '../../../kube/memory/extensions.js';
import type { MemoryCluster } from '../../../kube/memory/memory-cluster.js';
import { formatTime, type KubeObject, parseTime } from '../../../kube/object.js';
import { Jobs, Pods } from '../../../kube/resource-types.js';
import { type ErrorHandler, rethrowUncaught } from '../../settle/settle.js';
import { cacheKey, ObjectCache } from '../object-cache.js';
import { ReconcileQueue } from '../reconcile-queue.js';
import {
  CONTROLLER_MANAGER,
  controllerRef,
  createPod,
  deletePod,
  isActive,
  ownerKey,
  type PodTemplate,
  podCache,
  podFromTemplate,
  podsOf,
  splitKey,
  watchInto,
} from './common.js';

/** The finalizer that keeps a Job's pod until the Job has counted it (upstream's name). */
export const JobTrackingFinalizer = 'batch.kubernetes.io/job-tracking';

/** A batch/v1 Job, as far as its controller reads and writes it. */
export interface Job extends KubeObject {
  spec: {
    parallelism?: number;
    completions?: number;
    backoffLimit?: number;
    suspend?: boolean;
    ttlSecondsAfterFinished?: number;
    template: PodTemplate;
  };
  status?: {
    active?: number;
    succeeded?: number;
    failed?: number;
    startTime?: string;
    completionTime?: string;
    uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
    conditions?: {
      type: string;
      status: string;
      reason?: string;
      message?: string;
      lastTransitionTime?: string;
    }[];
  };
}

/** How the Job controller behaves. */
export interface JobControllerOptions {
  /** Deletes finished Jobs after `ttlSecondsAfterFinished`. */
  readonly timers: Timers;
  readonly clock: Clock;
  readonly onError?: ErrorHandler;
}

function finished(job: Job): 'Complete' | 'Failed' | undefined {
  for (const c of job.status?.conditions ?? []) {
    if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') return c.type;
  }
  return undefined;
}

/**
 * The Job controller as a MemoryCluster plug-in, counting pods the way current Kubernetes
 * does: every pod carries the job-tracking finalizer; a pod that finished (or is being deleted
 * before succeeding, which counts as a failure) is first recorded in
 * `status.uncountedTerminatedPods`, then released, then moved into `succeeded`/`failed`, so a
 * pod deleted later (its node consolidated) is never counted twice or lost.
 *
 * Keeps `min(parallelism, completions - succeeded)` pods active (without completions: the
 * Job completes when a pod has succeeded and none is active); Complete when enough succeeded,
 * Failed (BackoffLimitExceeded) when failures pass backoffLimit (default 6); suspend deletes
 * active pods; finished Jobs are deleted after ttlSecondsAfterFinished. Pods finish by the
 * KubeletSimulator's run-for annotation. Not simulated: indexed completion, pod failure
 * policies, activeDeadlineSeconds, backoff delays between retries.
 */
export class JobController implements MemoryClusterPlugin {
  readonly name = 'job-controller';
  readonly #options: JobControllerOptions;

  constructor(options: JobControllerOptions) {
    this.#options = options;
  }

  start(cluster: MemoryCluster): () => void {
    const run = new JobRun(cluster, this.#options);
    return () => run.stop();
  }
}

class JobRun {
  readonly #cluster: MemoryCluster;
  readonly #o: JobControllerOptions;
  readonly #onError: ErrorHandler;
  readonly #jobs = new ObjectCache<Job>();
  readonly #pods = podCache();
  readonly #ttl = new Map<string, Cancel>();
  readonly #stop: () => void;

  constructor(cluster: MemoryCluster, options: JobControllerOptions) {
    this.#cluster = cluster;
    this.#o = options;
    this.#onError = options.onError ?? rethrowUncaught;
    const queue = new ReconcileQueue((key) => this.#reconcile(key));
    const watches = [
      watchInto(cluster, Jobs, this.#jobs, queue, (prev, cur) => [cacheKey((cur ?? prev)!)]),
      watchInto(cluster, Pods, this.#pods, queue, (prev, cur) => [
        ownerKey(prev, 'Job'),
        ownerKey(cur, 'Job'),
      ]),
    ];
    this.#stop = () => {
      for (const w of watches) w.stop();
      for (const cancel of this.#ttl.values()) cancel();
      this.#ttl.clear();
    };
  }

  stop(): void {
    this.#stop();
  }

  async #reconcile(key: string): Promise<void> {
    const job = this.#jobs.get(key);
    if (job === undefined) {
      this.#ttl.get(key)?.();
      this.#ttl.delete(key);
      return;
    }
    const pods = podsOf(this.#pods, job);
    const counted = await this.#count(job, pods);
    if (counted === undefined) return;
    const { succeeded, failed, uncounted } = counted;
    const active = pods.filter(isActive);
    const parallelism = job.spec.parallelism ?? 1;
    const completions = job.spec.completions;
    const backoffLimit = job.spec.backoffLimit ?? 6;
    let outcome = finished(job);
    let reason: string | undefined;
    if (outcome === undefined) {
      if (failed > backoffLimit) {
        outcome = 'Failed';
        reason = 'BackoffLimitExceeded';
      } else if (
        completions !== undefined ? succeeded >= completions : succeeded > 0 && active.length === 0
      ) {
        outcome = 'Complete';
      }
    }
    let want = 0;
    if (outcome === undefined && job.spec.suspend !== true) {
      if (completions !== undefined) want = Math.min(parallelism, completions - succeeded);
      else want = succeeded > 0 ? 0 : parallelism;
    }
    // Without completions, the pods still running after the first success are left to finish.
    const keepRunning = outcome === undefined && completions === undefined && succeeded > 0;
    if (!keepRunning && active.length > want) {
      for (const pod of active.slice(want)) await deletePod(this.#cluster, this.#pods, pod);
    }
    if (active.length < want) {
      const ref = controllerRef(job, 'batch/v1', 'Job');
      const name = job.metadata.name ?? '';
      const uid = job.metadata.uid ?? '';
      for (let i = active.length; i < want; i++) {
        await createPod(
          this.#cluster,
          this.#pods,
          podFromTemplate(job.spec.template, job, ref, {
            labels: {
              'batch.kubernetes.io/job-name': name,
              'job-name': name,
              'batch.kubernetes.io/controller-uid': uid,
              'controller-uid': uid,
            },
            finalizers: [JobTrackingFinalizer],
          }),
        );
      }
    }
    const now = formatTime(this.#o.clock.now());
    const conditions = [...(job.status?.conditions ?? [])];
    if (outcome !== undefined && finished(job) === undefined) {
      conditions.push({
        type: outcome,
        status: 'True',
        ...(reason !== undefined ? { reason, message: 'Job has reached the specified backoff limit' } : {}),
        lastTransitionTime: now,
      });
    }
    const status: NonNullable<Job['status']> = {
      ...(job.status ?? {}),
      active: outcome === undefined || keepRunning ? Math.max(active.length, want) : 0,
      succeeded,
      failed,
      startTime: job.status?.startTime ?? now,
      uncountedTerminatedPods: uncounted,
      ...(conditions.length > 0 ? { conditions } : {}),
      ...(outcome === 'Complete' ? { completionTime: job.status?.completionTime ?? now } : {}),
    };
    await this.#writeStatus(key, job, status);
    if (outcome !== undefined) this.#scheduleTtl(key, job, status);
  }

  /**
   * Moves finished pods through uncounted -> finalizer removed -> counted. Returns the counts, or
   * undefined when the status write lost a race (the watch brings the newer Job back).
   */
  async #count(
    job: Job,
    pods: readonly Pod[],
  ): Promise<
    { succeeded: number; failed: number; uncounted: { succeeded: string[]; failed: string[] } } | undefined
  > {
    const uncounted = {
      succeeded: [...(job.status?.uncountedTerminatedPods?.succeeded ?? [])],
      failed: [...(job.status?.uncountedTerminatedPods?.failed ?? [])],
    };
    const tracked = new Set([...uncounted.succeeded, ...uncounted.failed]);
    let added = false;
    for (const pod of pods) {
      const uid = pod.metadata.uid ?? '';
      if (!(pod.metadata.finalizers ?? []).includes(JobTrackingFinalizer) || tracked.has(uid)) continue;
      const phase = pod.status?.phase;
      if (phase === 'Succeeded') uncounted.succeeded.push(uid);
      else if (phase === 'Failed' || pod.metadata.deletionTimestamp !== undefined) uncounted.failed.push(uid);
      else continue;
      tracked.add(uid);
      added = true;
    }
    if (added) {
      const ok = await this.#writeStatus(cacheKey(job), job, {
        ...(job.status ?? {}),
        uncountedTerminatedPods: uncounted,
      });
      if (!ok) return undefined;
    }
    for (const pod of pods) {
      if (tracked.has(pod.metadata.uid ?? '')) await this.#release(pod);
    }
    let succeeded = job.status?.succeeded ?? 0;
    let failed = job.status?.failed ?? 0;
    // Read back from the cache: releasing a pod just changed (or removed) it.
    const keys = new Map(pods.map((p) => [p.metadata.uid ?? '', cacheKey(p)]));
    const stillHeld = (uid: string) => {
      const key = keys.get(uid);
      const pod = key === undefined ? undefined : this.#pods.get(key);
      return pod?.metadata.uid === uid && (pod.metadata.finalizers ?? []).includes(JobTrackingFinalizer);
    };
    const left = { succeeded: [] as string[], failed: [] as string[] };
    for (const uid of uncounted.succeeded) {
      if (stillHeld(uid)) left.succeeded.push(uid);
      else succeeded++;
    }
    for (const uid of uncounted.failed) {
      if (stillHeld(uid)) left.failed.push(uid);
      else failed++;
    }
    return { succeeded, failed, uncounted: left };
  }

  async #release(pod: Pod): Promise<void> {
    const finalizers = (pod.metadata.finalizers ?? []).filter((f) => f !== JobTrackingFinalizer);
    try {
      const updated = await this.#cluster.patch<Pod>(
        Pods,
        { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? 'default' },
        { metadata: { finalizers, resourceVersion: pod.metadata.resourceVersion ?? '' } },
        { fieldManager: CONTROLLER_MANAGER },
      );
      this.#pods.observe(updated);
    } catch (err) {
      if (isNotFound(err)) {
        this.#pods.remove(pod);
        return;
      }
      if (!isConflict(err)) throw err;
    }
    // A pod deleted while held is gone once released; the watch reports it.
    const still = this.#pods.get(cacheKey(pod));
    if (still?.metadata.deletionTimestamp !== undefined && (still.metadata.finalizers ?? []).length === 0) {
      this.#pods.remove(still);
    }
  }

  async #writeStatus(key: string, job: Job, status: NonNullable<Job['status']>): Promise<boolean> {
    const latest = this.#jobs.get(key) ?? job;
    if (jsonEqual(status, latest.status ?? {})) return true;
    try {
      this.#jobs.observe(
        await this.#cluster.updateStatus<Job>(
          Jobs,
          { ...latest, status },
          { fieldManager: CONTROLLER_MANAGER },
        ),
      );
      return true;
    } catch (err) {
      if (isConflict(err) || isNotFound(err)) return false;
      throw err;
    }
  }

  #scheduleTtl(key: string, job: Job, status: NonNullable<Job['status']>): void {
    const ttl = job.spec.ttlSecondsAfterFinished;
    if (ttl === undefined || this.#ttl.has(key)) return;
    const finishedAt = status.conditions?.find(
      (c) => c.type === 'Complete' || c.type === 'Failed',
    )?.lastTransitionTime;
    const at = (finishedAt !== undefined ? parseTime(finishedAt) : this.#o.clock.now()) + ttl * 1000;
    const uid = job.metadata.uid ?? '';
    this.#ttl.set(
      key,
      this.#o.timers.after(at - this.#o.clock.now(), () => {
        this.#ttl.delete(key);
        this.#cluster
          .delete(Jobs, splitKey(key), { propagationPolicy: 'Background', preconditions: { uid } })
          .catch((err: unknown) => {
            if (!isNotFound(err) && !isConflict(err)) this.#onError(err);
          });
      }),
    );
  }
}
