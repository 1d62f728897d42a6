import { type Logger, pino } from 'pino';
import { Registry } from 'prom-client';
import { FakeClock } from '../clock/clock.js';
import { ManualTimers } from '../clock/timers.js';
import { UnavailableOfferingsCache } from '../cloudprovider/unavailable-offerings.js';
import { isNotFound } from '../kube/errors.js';
import { MemoryCluster } from '../kube/memory/memory-cluster.js';
import type { KubeObject } from '../kube/object.js';
import type { ResourceType } from '../kube/resource-type.js';
import { NodeClaims, NodePools } from '../kube/resource-types.js';
import type { ProviderContext } from '../operator/plugin/provider-plugin.js';
import type { Controller } from '../operator/runtime/controller.js';
import { RecordingEventRecorder } from '../operator/runtime/event-recorder.js';
import { Manager } from '../operator/runtime/manager.js';
import { FakeCloudProvider, type FakeCloudProviderOptions } from './fake-cloud-provider.js';

/** The time every ControllerEnv starts at unless told otherwise. */
export const ENV_START = Date.parse('2026-03-02T09:00:00Z');

/** How to build a ControllerEnv. */
export interface ControllerEnvOptions {
  readonly start?: number;
  /** Kinds served besides the built-in ones, NodePools and NodeClaims. */
  readonly kinds?: readonly ResourceType[];
  readonly cloudProvider?: Omit<FakeCloudProviderOptions, 'clock'>;
  /** Pods stay Terminating for their grace period (needs something to delete them). */
  readonly gracefulPodDeletion?: boolean;
  /** A logger to see controller logs; default silent. */
  readonly logger?: Logger;
}

/**
 * A cluster, clock, timers, fake cloud, event recorder, registry and manager wired together for
 * controller tests and simulations: `env.start(...controllers)`, then act on `env.cluster` and
 * `await env.settle()` / `await env.advance(ms)` to let every consequence play out.
 */
export class ControllerEnv {
  readonly clock: FakeClock;
  readonly timers: ManualTimers;
  readonly cluster: MemoryCluster;
  readonly cloudProvider: FakeCloudProvider;
  readonly events = new RecordingEventRecorder();
  readonly registry = new Registry();
  readonly logger: Logger;
  readonly manager: Manager;

  constructor(options: ControllerEnvOptions = {}) {
    this.clock = new FakeClock(options.start ?? ENV_START);
    this.timers = new ManualTimers(this.clock);
    this.cluster = new MemoryCluster({
      clock: this.clock,
      kinds: [NodePools, NodeClaims, ...(options.kinds ?? [])],
      gracefulPodDeletion: options.gracefulPodDeletion ?? false,
    });
    this.cloudProvider = new FakeCloudProvider({ ...options.cloudProvider, clock: this.clock });
    this.logger = options.logger ?? pino({ level: 'silent' });
    this.manager = new Manager({
      cluster: this.cluster,
      clock: this.clock,
      timers: this.timers,
      registry: this.registry,
      logger: this.logger,
      settleCluster: () => this.cluster.settled(),
      elapsed: () => this.clock.now() / 1000,
    });
  }

  /**
   * What a provider plug-in is built with, over this env's cluster, clock, timers, logger,
   * registry and events: a provider composed on it runs on the env's fake time.
   */
  providerContext(clusterName: string, settings: Readonly<Record<string, string>> = {}): ProviderContext {
    return {
      cluster: this.cluster,
      clock: this.clock,
      timers: this.timers,
      logger: this.logger,
      registry: this.registry,
      events: this.events,
      clusterName,
      settings,
      unavailableOfferings: new UnavailableOfferingsCache(this.clock),
    };
  }

  /** Registers and starts the controllers, then waits for the initial lists and their reconciles. */
  async start(...controllers: Controller[]): Promise<void> {
    this.manager.register(...controllers);
    this.manager.start();
    await this.manager.synced();
    await this.settle();
  }

  /** Lets every watch event and reconcile triggered so far run to completion. */
  settle(): Promise<void> {
    return this.manager.settled();
  }

  /** Moves time forward, firing requeues and retries on the way, settling after each. */
  advance(ms: number): Promise<void> {
    return this.timers.advance(ms, () => this.settle());
  }

  /**
   * Creates an object and then writes its status, as its controller or kubelet would: the API
   * server drops (or resets, for pods) the status given on create, so a Running pod or a Ready
   * node in a test needs both writes.
   */
  async create<T extends KubeObject>(type: ResourceType<T>, object: T): Promise<T> {
    const created = await this.cluster.create(type, object);
    const status = (object as { status?: unknown }).status;
    if (!type.statusSubresource || status === undefined) return created;
    return this.cluster.updateStatus(type, { ...created, status } as T);
  }

  /** The current state of an object, or undefined when it does not exist. */
  async find<T extends KubeObject>(
    type: ResourceType<T>,
    name: string,
    namespace?: string,
  ): Promise<T | undefined> {
    try {
      return await this.cluster.get(type, namespace === undefined ? { name } : { name, namespace });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** The value of a counter or gauge with these labels (0 when never set). */
  async metric(name: string, labels: Record<string, string> = {}): Promise<number> {
    const metric = this.registry.getSingleMetric(name);
    if (metric === undefined) return 0;
    const { values } = await metric.get();
    const matches = values.filter((v) =>
      Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want),
    );
    return matches.reduce((sum, v) => sum + v.value, 0);
  }

  stop(): Promise<void> {
    return this.manager.stop();
  }
}
