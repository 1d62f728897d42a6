import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { coreCrdKinds } from '../apis/v1/kinds.js';
import type { ObjectKey } from '../kube/object.js';
import type { ClusterPort } from '../kube/port.js';
import { type OperatorConfig, type OperatorEnvironment, operatorContainer, Tokens } from './container.js';
import { ensureCrds } from './crds/install-crds.js';
import {
  type EventLoopDelaySource,
  nodeEventLoopDelay,
  registerEventLoopDelayMetric,
} from './event-loop/event-loop-delay.js';
import { type HttpEndpoint, serveHttp } from './http/http-server.js';
import { type CheckResult, healthRoutes, metricsRoutes } from './http/routes.js';
import { checkKarpenter, karpenterRefusal } from './karpenter-guard/karpenter-guard.js';
import type { LeaderElector } from './leader-election/leader-elector.js';
import { Leases } from './leader-election/lease.js';
import type { ProviderInstance } from './plugin/provider-plugin.js';
import type { EventRecorder } from './runtime/event-recorder.js';
import type { Manager } from './runtime/manager.js';

/** Everything an Operator is built from. */
export interface OperatorOptions extends OperatorConfig {
  readonly environment: OperatorEnvironment;
  /** 0 picks a free port; see `Operator.ports`. */
  readonly metricsPort: number;
  readonly healthPort: number;
  /** Interface to bind; default all. */
  readonly host?: string;
  /** `install` (server-side apply, default) or `check` the CRDs at start. */
  readonly crds?: 'install' | 'check';
  /** Longest wait for running reconciles at stop; default 30 s. */
  readonly shutdownTimeoutMs?: number;
  /**
   * Karpenter's leader election Lease: start-up fails while a live Karpenter holds it, since
   * both would act on the same `karpenter.sh` objects. Unset skips the check.
   */
  readonly karpenterLease?: ObjectKey;
  /**
   * Samples the event loop's delay from `start()` to the end of `stop()`, exported as
   * `nodewright_event_loop_delay_seconds`; default Node's `monitorEventLoopDelay`.
   */
  readonly eventLoopDelay?: EventLoopDelaySource;
}

/** Why an operator ended: stopped on request (0) or failed after starting (1). */
export interface OperatorExit {
  readonly code: 0 | 1;
  readonly reason: string;
}

type Phase = 'new' | 'starting' | 'running' | 'stopping' | 'stopped';

/**
 * One nodewright operator process: the composition root. `start()` serves health and metrics,
 * installs or checks the CRDs, builds the provider and the controllers (an inversify Container,
 * see container.ts), starts the informers on every replica, and runs leader election: only the
 * replica holding the Lease reconciles. A replica that loses the Lease stops its controllers
 * and ends (`exited` resolves with code 1), as controller-runtime's managers do, so the process
 * restarts clean. `stop()` is the graceful path: no new work, running reconciles get up to
 * 30 s, the Lease is released, the provider closed, the servers shut.
 */
export class Operator {
  readonly #options: OperatorOptions;
  readonly #logger: Logger;
  readonly #container: Container;
  readonly #eventLoopDelay: EventLoopDelaySource;
  #phase: Phase = 'new';
  #notReady = 'starting';
  #servers: HttpEndpoint[] = [];
  #manager: Manager | undefined;
  #elector: LeaderElector | undefined;
  #provider: ProviderInstance | undefined;
  #ports: { metrics: number; health: number } | undefined;
  #stopping: Promise<void> | undefined;
  #exit!: (exit: OperatorExit) => void;
  /** Resolves once the operator has ended, with why. */
  readonly exited: Promise<OperatorExit>;

  constructor(options: OperatorOptions) {
    this.#options = options;
    this.#logger = options.environment.logger;
    this.#container = operatorContainer(options, options.environment);
    this.#eventLoopDelay = options.eventLoopDelay ?? nodeEventLoopDelay();
    this.exited = new Promise((resolve) => {
      this.#exit = resolve;
    });
  }

  /** The bound ports, once `start()` resolved. */
  get ports(): { metrics: number; health: number } {
    if (this.#ports === undefined) throw new Error('operator: not started');
    return this.#ports;
  }

  /** The registry /metrics serves. */
  get registry(): Registry {
    return this.#container.get(Tokens.Registry);
  }

  /** Whether this replica's controllers reconcile now. */
  isLeading(): boolean {
    return this.#manager?.isRunning() ?? false;
  }

  /** `/readyz`: ok once every informer has listed. */
  readiness(): CheckResult {
    if (this.#manager === undefined) return { ok: false, reason: this.#notReady };
    if (!this.#manager.hasSynced()) return { ok: false, reason: 'informer caches are not synced yet' };
    return { ok: true };
  }

  /**
   * Starts everything; resolves once the informers run and leader election has begun (not
   * when leading). Rejects with an error naming the problem (a port taken, a CRD missing, the
   * provider refusing its settings, ...) after undoing what it started.
   */
  async start(): Promise<void> {
    if (this.#phase !== 'new') throw new Error('operator: start() may be called once');
    this.#phase = 'starting';
    try {
      await this.#start();
    } catch (err) {
      const reason = `start-up failed: ${err instanceof Error ? err.message : String(err)}`;
      this.#logger.error({ reason }, 'operator failed');
      await this.#end({ code: 1, reason });
      throw err;
    }
    if (this.#phase === 'starting') this.#phase = 'running';
  }

  async #start(): Promise<void> {
    const o = this.#options;
    const env = o.environment;
    const registry = this.#container.get(Tokens.Registry);
    this.#eventLoopDelay.enable();
    registerEventLoopDelayMetric(registry, this.#eventLoopDelay);
    const metrics = await serveHttp({
      port: o.metricsPort,
      ...(o.host === undefined ? {} : { host: o.host }),
      routes: metricsRoutes(registry),
      logger: this.#logger,
    });
    this.#servers.push(metrics);
    this.#logger.info({ port: metrics.port }, 'serving metrics');
    const health = await serveHttp({
      port: o.healthPort,
      ...(o.host === undefined ? {} : { host: o.host }),
      routes: healthRoutes(() => this.readiness()),
      logger: this.#logger,
    });
    this.#servers.push(health);
    this.#logger.info({ port: health.port }, 'serving health');
    this.#ports = { metrics: metrics.port, health: health.port };

    const cluster = this.#container.get(Tokens.Cluster);
    const mode = o.crds ?? 'install';
    this.#notReady = mode === 'install' ? 'installing CRDs' : 'checking CRDs';
    await ensureCrds(
      { cluster, clock: env.clock, timers: env.timers, logger: this.#logger },
      { kinds: [...coreCrdKinds, ...o.plugin.kinds], mode },
    );

    if (o.karpenterLease !== undefined) {
      this.#notReady = 'checking for a running Karpenter';
      const check = await checkKarpenter(cluster, o.karpenterLease, env.clock.now());
      if (check.state === 'active') throw new Error(karpenterRefusal(o.karpenterLease, check.karpenter));
      if (check.state === 'unknown') {
        this.#logger.warn({ reason: check.reason }, 'cannot tell whether Karpenter runs; starting anyway');
      }
    }

    this.#notReady = `building the ${o.plugin.name} provider`;
    this.#assertStarting();
    this.#provider = await this.#container.getAsync(Tokens.Provider);
    this.#assertStarting();
    const manager = await this.#container.getAsync(Tokens.Manager);
    this.#manager = manager;
    manager.startInformers();
    this.#elector = await this.#container.getAsync(Tokens.LeaderElector);
    if (this.#elector === undefined) {
      this.#logger.info('leader election disabled; this replica leads');
      manager.startControllers();
      return;
    }
    const elector = this.#elector;
    const events = this.#container.get(Tokens.Events);
    elector.start({
      onStartedLeading: () => {
        if (this.#phase === 'stopping' || this.#phase === 'stopped') return;
        manager.startControllers();
        void this.#leaseEvent(events, cluster, `${elector.identity} became leader`);
      },
      onStoppedLeading: (reason) => {
        void this.#fail(`lost leadership: ${reason}`);
      },
    });
  }

  /** A stop during start-up ends it between steps, so nothing starts after the shutdown. */
  #assertStarting(): void {
    if (this.#phase !== 'starting') throw new Error('operator: stopped during start-up');
  }

  /**
   * Graceful stop: stops taking work, waits for running reconciles (at most
   * `shutdownTimeoutMs`), releases the Lease, closes the provider and the servers. Idempotent;
   * `exited` resolves with code 0.
   */
  async stop(): Promise<void> {
    await this.#end({ code: 0, reason: 'stopped' });
  }

  async #fail(reason: string): Promise<void> {
    this.#logger.error({ reason }, 'operator failed');
    await this.#end({ code: 1, reason });
  }

  async #end(exit: OperatorExit): Promise<void> {
    if (this.#stopping === undefined) {
      this.#stopping = this.#shutdown(exit.reason).then(() => {
        this.#phase = 'stopped';
        this.#exit(exit);
      });
    }
    await this.#stopping;
  }

  async #shutdown(reason: string): Promise<void> {
    this.#phase = 'stopping';
    this.#notReady = 'shutting down';
    const { timers } = this.#options.environment;
    const timeoutMs = this.#options.shutdownTimeoutMs ?? 30_000;
    if (this.#manager !== undefined) {
      let timedOut = false;
      await Promise.race([
        this.#manager.stop(),
        new Promise<void>((resolve) =>
          timers.after(timeoutMs, () => {
            timedOut = true;
            resolve();
          }),
        ),
      ]);
      if (timedOut)
        this.#logger.warn({ timeoutMs }, 'reconciles still running at the shutdown deadline; leaving them');
    }
    // Events the controllers queued before they stopped are written, within the same bound.
    await this.#flushEvents(timeoutMs);
    // After the controllers stopped, so no reconcile acts once a standby may lead.
    await this.#elector?.stop();
    try {
      let cancel = () => {};
      const deadline = new Promise<void>((resolve) => {
        cancel = timers.after(timeoutMs, () => {
          this.#logger.warn({ timeoutMs }, 'closing the provider timed out');
          resolve();
        });
      });
      await Promise.race([this.#provider?.close?.(), deadline]).finally(() => cancel());
    } catch (err) {
      this.#logger.warn({ err }, 'closing the provider failed');
    }
    await Promise.all(this.#servers.map((s) => s.close().catch(() => undefined)));
    this.#servers = [];
    this.#eventLoopDelay.disable();
    this.#logger.info({ reason }, 'operator stopped');
  }

  async #flushEvents(timeoutMs: number): Promise<void> {
    // Before the manager, nothing was published (and the recorder may not be buildable).
    if (this.#manager === undefined) return;
    const events = this.#container.get(Tokens.Events);
    if (events.flush === undefined) return;
    let cancel = () => {};
    const deadline = new Promise<void>((resolve) => {
      cancel = this.#options.environment.timers.after(timeoutMs, () => {
        this.#logger.warn({ timeoutMs }, 'events still queued at the shutdown deadline; dropping them');
        resolve();
      });
    });
    await Promise.race([events.flush(), deadline]).finally(() => cancel());
  }

  async #leaseEvent(events: EventRecorder, cluster: ClusterPort, message: string): Promise<void> {
    const le = this.#options.leaderElection;
    if (le === undefined) return;
    try {
      const lease = await cluster.get(Leases, { namespace: le.namespace, name: le.name });
      await events.publish({ object: lease, type: 'Normal', reason: 'LeaderElection', message });
    } catch (err) {
      this.#logger.debug({ err }, 'could not publish the LeaderElection event');
    }
  }
}
