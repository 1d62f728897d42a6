import type { Logger } from 'pino';
import { ControllerBackoff, ItemBackoff } from '../../clock/backoff.js';
import type { Timers } from '../../clock/timers.js';
import { isConflict } from '../../kube/errors.js';
import type { ObjectKey } from '../../kube/object.js';
import type { CacheSync } from './cache-sync.js';
import type { Controller, ReconcileContext, ReconcileResult } from './controller.js';
import type { ControllerCache } from './controller-cache.js';
import { keyString, parseKey } from './keys.js';
import type { RuntimeMetrics } from './metrics.js';
import { isReconcilePanic } from './panic.js';
import { ReconcileDeadlineExceeded, withReconcileDeadline } from './reconcile-deadline.js';
import { isTerminalReconcileError } from './terminal-error.js';
import { WorkQueue } from './work-queue.js';

/** What a ControllerRunner needs from the manager. */
export interface RunnerDependencies {
  readonly timers: Timers;
  /** Milliseconds since the epoch on the Timers' time base (delays are computed against it). */
  readonly now: () => number;
  /** Seconds on a monotonic clock, for reconcile durations. */
  readonly elapsed: () => number;
  readonly cache: ControllerCache;
  readonly logger: Logger;
  readonly metrics: RuntimeMetrics;
  readonly signal: AbortSignal;
  /** The manager's cache sync, handed to reconciles. */
  readonly cacheSync: () => CacheSync;
  /** How long a reconcile may run unless its controller sets `reconcileDeadlineMs`. */
  readonly reconcileDeadlineMs: number;
}

/**
 * Runs one controller: its work queue, up to `maxConcurrentReconciles` reconciles at once (never
 * two for one key), retries with per-key backoff, requeues, metrics and error logs. A reconcile
 * past its deadline is abandoned: its slot and key are released, so a call that never answers
 * holds one worker for at most the deadline, not forever.
 */
export class ControllerRunner {
  readonly controller: Controller;
  readonly #deps: RunnerDependencies;
  readonly #queue: WorkQueue;
  readonly #backoff: ItemBackoff;
  readonly #max: number;
  readonly #deadlineMs: number;
  readonly #logger: Logger;
  readonly #context: ReconcileContext;
  #active = 0;
  /** Running reconciles: key -> when it started (`elapsed()` seconds). */
  readonly #startedAt = new Map<string, number>();
  #running = false;
  #pumpScheduled = false;
  #idleWaiters: (() => void)[] = [];

  constructor(controller: Controller, deps: RunnerDependencies) {
    this.controller = controller;
    this.#deps = deps;
    this.#max = Math.max(1, controller.maxConcurrentReconciles ?? 1);
    this.#deadlineMs = controller.reconcileDeadlineMs ?? deps.reconcileDeadlineMs;
    this.#backoff = new ItemBackoff(controller.backoff ?? ControllerBackoff);
    this.#logger = deps.logger.child({ controller: controller.name });
    this.#context = {
      cache: deps.cache,
      signal: deps.signal,
      managerSignal: deps.signal,
      logger: this.#logger,
      cacheSync: deps.cacheSync,
      enqueue: (key) => this.enqueue(key),
    };
    const labels = { name: controller.name, controller: controller.name };
    this.#queue = new WorkQueue(deps.timers, deps.now, {
      added: () => deps.metrics.adds.inc(labels),
      depth: (depth) => deps.metrics.depth.set(labels, depth),
      waited: (ms) => deps.metrics.queueDuration.observe(labels, ms / 1_000),
    });
    deps.metrics.inFlight.track(controller.name, () =>
      [...this.#startedAt.values()].map((started) => Math.max(0, deps.elapsed() - started)),
    );
    this.#queue.onReady = () => this.#schedulePump();
    deps.metrics.maxConcurrentReconciles.set({ controller: controller.name }, this.#max);
    deps.metrics.activeWorkers.set({ controller: controller.name }, 0);
    // As controller-runtime does: the error families have a zero series per controller from the
    // start, so a rate() over them is defined before the first failure.
    for (const counter of [
      deps.metrics.reconcileErrors,
      deps.metrics.reconcilePanics,
      deps.metrics.terminalReconcileErrors,
    ]) {
      counter.inc({ controller: controller.name }, 0);
    }
  }

  /** Queues a key for reconciliation (deduplicated). */
  enqueue(key: ObjectKey): void {
    this.#queue.add(keyString(key));
  }

  /**
   * Queues the controller's initial keys and starts reconciling. Keys enqueued before (informer
   * events of a standby replica) wait in the queue until then.
   */
  start(): void {
    this.#running = true;
    for (const key of this.controller.initialKeys ?? []) this.enqueue(key);
    this.#schedulePump();
  }

  /** No key is ready and no reconcile is running (delayed requeues may be pending). */
  isIdle(): boolean {
    return this.#active === 0 && this.#queue.length === 0;
  }

  /** Resolves the next time the runner is idle (at once when it is). */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** When the key's next delayed run is due, if one is scheduled (for tests and diagnostics). */
  requeueAt(key: ObjectKey): number | undefined {
    return this.#queue.delayedUntil(keyString(key));
  }

  /** Drops queued work and waits for running reconciles to finish. */
  async stop(): Promise<void> {
    this.#queue.shutDown();
    await this.whenIdle();
  }

  #schedulePump(): void {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    // Reconciles start on a microtask, never inside the watch handler that queued them.
    queueMicrotask(() => {
      this.#pumpScheduled = false;
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#running && this.#active < this.#max && !this.#deps.signal.aborted) {
      const key = this.#queue.get();
      if (key === undefined) break;
      this.#active++;
      this.#deps.metrics.activeWorkers.set({ controller: this.controller.name }, this.#active);
      void this.#run(key);
    }
    this.#notifyIdle();
  }

  async #run(key: string): Promise<void> {
    const name = this.controller.name;
    const metrics = this.#deps.metrics;
    const started = this.#deps.elapsed();
    this.#startedAt.set(key, started);
    try {
      const result: ReconcileResult | undefined = await withReconcileDeadline(
        this.#deps.timers,
        this.#deadlineMs,
        this.#deps.signal,
        (signal) => this.controller.reconcile(parseKey(key), { ...this.#context, signal }),
      );
      if (result?.requeue === true) {
        metrics.retries.inc({ name, controller: name });
        metrics.reconcileTotal.inc({ controller: name, result: 'requeue' });
        this.#queue.addAfter(key, this.#backoff.next(key));
      } else if (result?.requeueAfterMs !== undefined) {
        this.#backoff.forget(key);
        metrics.reconcileTotal.inc({ controller: name, result: 'requeue_after' });
        this.#queue.addAfter(key, result.requeueAfterMs);
      } else {
        this.#backoff.forget(key);
        metrics.reconcileTotal.inc({ controller: name, result: 'success' });
      }
    } catch (err) {
      metrics.reconcileErrors.inc({ controller: name });
      if (isReconcilePanic(err)) metrics.reconcilePanics.inc({ controller: name });
      metrics.reconcileTotal.inc({ controller: name, result: 'error' });
      if (isTerminalReconcileError(err)) {
        metrics.terminalReconcileErrors.inc({ controller: name });
        this.#backoff.forget(key);
        this.#logger.error(
          { err, key },
          'Reconciler error, not retried: only a change to the object can help',
        );
        return;
      }
      metrics.retries.inc({ name, controller: name });
      const delay = this.#backoff.next(key);
      if (err instanceof ReconcileDeadlineExceeded) {
        this.#logger.error(
          { key, reason: err.message, deadlineSeconds: err.deadlineMs / 1000, retryInMs: delay },
          'Reconcile abandoned',
        );
      } else {
        // Conflicts are the normal price of optimistic concurrency: retry quietly.
        const level = isConflict(err) ? 'debug' : 'error';
        this.#logger[level]({ err, key, retryInMs: delay }, 'Reconciler error');
      }
      this.#queue.addAfter(key, delay);
    } finally {
      const seconds = Math.max(0, this.#deps.elapsed() - started);
      this.#startedAt.delete(key);
      metrics.reconcileTime.observe({ controller: name }, seconds);
      metrics.workDuration.observe({ name, controller: name }, seconds);
      this.#active--;
      metrics.activeWorkers.set({ controller: name }, this.#active);
      this.#queue.done(key);
      this.#pump();
    }
  }

  #notifyIdle(): void {
    if (!this.isIdle() || this.#idleWaiters.length === 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
