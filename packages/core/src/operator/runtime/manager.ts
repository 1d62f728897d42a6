import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Clock } from '../../clock/clock.js';
import type { Timers } from '../../clock/timers.js';
import type { ClusterPort } from '../../kube/port.js';
import { typeKey } from '../../kube/resource-type.js';
import { type CacheSync, cacheSyncOf, registerCacheSyncMetrics } from './cache-sync.js';
import type { Controller } from './controller.js';
import { type ControllerCache, StoreCache, TypeStore } from './controller-cache.js';
import { ControllerRunner } from './controller-runner.js';
import { Informer } from './informer.js';
import { runtimeMetrics } from './metrics.js';
import { DefaultReconcileDeadlineMs } from './reconcile-deadline.js';

/** What a Manager is built from. */
export interface ManagerOptions {
  readonly cluster: ClusterPort;
  readonly clock: Clock;
  /** Requeues, retries and watch restarts run on these; ManualTimers make a run exact. */
  readonly timers: Timers;
  /** Reconcile and work-queue metrics go here (a registry per operator, never the global one). */
  readonly registry: Registry;
  readonly logger: Logger;
  /**
   * Waits until the cluster has delivered every watch event caused so far — `() =>
   * memoryCluster.settled()` for the in-memory cluster. Used by `settled()`; omit for a real
   * cluster.
   */
  readonly settleCluster?: () => Promise<void>;
  /** Monotonic seconds for reconcile durations; defaults to `performance.now() / 1000`. */
  readonly elapsed?: () => number;
  /**
   * How long a reconcile may run, for controllers that set no `reconcileDeadlineMs`; default
   * DefaultReconcileDeadlineMs (5 min). Measured on `timers`.
   */
  readonly reconcileDeadlineMs?: number;
}

/**
 * Runs controllers: one shared informer (list+watch+cache) per watched kind, fanning changes out
 * to the controllers' work queues. Register every controller, then `start()`; `synced()` is
 * readiness (every initial list delivered); `stop()` (or aborting the signal given to `start`)
 * ends watches and waits for running reconciles.
 *
 * Deterministic driving (tests, the simulator): with ManualTimers,
 * `timers.runUntil(t, () => manager.settled())` — `settled()` alternates between the cluster's
 * settlement and the controllers' queues until neither has work, so every consequence of each
 * timer firing has played out before time moves on.
 */
export class Manager {
  readonly #options: ManagerOptions;
  readonly #logger: Logger;
  readonly #stores = new Map<string, TypeStore>();
  readonly #informers = new Map<string, Informer>();
  readonly #runners: ControllerRunner[] = [];
  readonly #abort = new AbortController();
  readonly #metrics;
  readonly cache: ControllerCache;
  #started = false;
  #informersStarted = false;
  #stopped: Promise<void> | undefined;

  constructor(options: ManagerOptions) {
    this.#options = options;
    this.#logger = options.logger;
    this.#metrics = runtimeMetrics(options.registry);
    this.cache = new StoreCache(this.#stores);
    const now = () => options.clock.now();
    registerCacheSyncMetrics(options.registry, () => this.cacheSync(), now);
  }

  /** Adds controllers; only before `start`. Names must be unique. */
  register(...controllers: Controller[]): this {
    if (this.#informersStarted) throw new Error('controllers must be registered before the manager starts');
    for (const controller of controllers) {
      if (this.#runners.some((r) => r.controller.name === controller.name)) {
        throw new Error(`controller ${controller.name} is registered twice`);
      }
      const elapsed = this.#options.elapsed ?? (() => performance.now() / 1000);
      const runner = new ControllerRunner(controller, {
        timers: this.#options.timers,
        now: () => this.#options.clock.now(),
        elapsed,
        cache: this.cache,
        logger: this.#logger,
        metrics: this.#metrics,
        signal: this.#abort.signal,
        cacheSync: () => this.cacheSync(),
        reconcileDeadlineMs: this.#options.reconcileDeadlineMs ?? DefaultReconcileDeadlineMs,
      });
      this.#runners.push(runner);
      for (const source of controller.watches) {
        const informer = this.#informer(source.type);
        informer.addHandler((event) => {
          for (const key of source.map(event, this.cache)) runner.enqueue(key);
        });
      }
    }
    return this;
  }

  /** Names of the registered controllers, in registration order. */
  controllers(): string[] {
    return this.#runners.map((r) => r.controller.name);
  }

  /** Starts every informer and controller; aborting `signal` stops the manager. */
  start(signal?: AbortSignal): void {
    this.startInformers(signal);
    this.startControllers();
  }

  /**
   * Starts the informers only: caches fill and events queue keys, but nothing reconciles until
   * `startControllers`. A standby replica under leader election stays here, so it is ready to
   * act the moment it leads. Aborting `signal` stops the manager.
   */
  startInformers(signal?: AbortSignal): void {
    if (this.#informersStarted) throw new Error('the manager is already started');
    this.#informersStarted = true;
    signal?.addEventListener('abort', () => void this.stop(), { once: true });
    for (const informer of this.#informers.values()) informer.start();
  }

  /**
   * Starts reconciling (the queued keys and each controller's initial keys); starts the
   * informers too if `startInformers` was not called. Once only.
   */
  startControllers(): void {
    if (this.#started) throw new Error('the manager is already started');
    if (this.#stopped !== undefined) throw new Error('the manager is stopped');
    if (!this.#informersStarted) this.startInformers();
    this.#started = true;
    for (const runner of this.#runners) runner.start();
    this.#logger.info({ controllers: this.controllers() }, 'starting controllers');
  }

  /** Whether the controllers reconcile (`startControllers` was called). */
  isRunning(): boolean {
    return this.#started && this.#stopped === undefined;
  }

  /** Resolves once every informer has delivered its initial list (readiness). */
  async synced(): Promise<void> {
    await Promise.all([...this.#informers.values()].map((i) => i.synced));
  }

  /** Whether every informer has delivered its initial list; for /readyz. */
  hasSynced(): boolean {
    return this.#informersStarted && [...this.#informers.values()].every((i) => i.hasSynced());
  }

  /**
   * Whether every informer's cache holds the API server's current list (see CacheSync): false
   * during the first list and during a relist, when `hasSynced` may already be true.
   */
  cacheSync(): CacheSync {
    return cacheSyncOf([...this.#informers.values()].map((i) => i.listingState()));
  }

  /**
   * Resolves when the cluster has delivered every event caused so far and no controller has a
   * ready key or a running reconcile. Delayed requeues may remain: they wait for their timers.
   */
  async settled(): Promise<void> {
    for (;;) {
      await this.#options.settleCluster?.();
      if (this.#runners.every((r) => r.isIdle())) {
        // Let reconciles queued by the very last watch deliveries start before deciding.
        await Promise.resolve();
        if (this.#runners.every((r) => r.isIdle())) return;
      }
      await Promise.all(this.#runners.map((r) => r.whenIdle()));
    }
  }

  /** When the controller's next delayed run of `key` is due (ms since epoch), if scheduled. */
  requeueAt(controller: string, key: { name: string; namespace?: string }): number | undefined {
    return this.#runners.find((r) => r.controller.name === controller)?.requeueAt(key);
  }

  /** Stops watches and queues and waits for running reconciles; idempotent. */
  stop(): Promise<void> {
    if (this.#stopped !== undefined) return this.#stopped;
    this.#abort.abort(new Error('manager stopped'));
    for (const informer of this.#informers.values()) informer.stop();
    const wasRunning = this.#started;
    this.#stopped = Promise.all(this.#runners.map((r) => r.stop())).then(() => {
      if (wasRunning) this.#logger.info('stopped controllers');
    });
    return this.#stopped;
  }

  #informer(type: Parameters<ClusterPort['watch']>[0]): Informer {
    const key = typeKey(type);
    let informer = this.#informers.get(key);
    if (informer === undefined) {
      const store = new TypeStore();
      this.#stores.set(key, store);
      informer = new Informer(this.#options.cluster, type, store, this.#options.timers, this.#logger, () =>
        this.#options.clock.now(),
      );
      this.#informers.set(key, informer);
    }
    return informer;
  }
}
