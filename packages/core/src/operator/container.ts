import type { KubeConfig } from '@kubernetes/client-node';
import { Container, type ServiceIdentifier } from 'inversify';
import type { Logger } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Clock } from '../clock/clock.js';
import type { Timers } from '../clock/timers.js';
import type { CloudProvider } from '../cloudprovider/cloud-provider.js';
import { cloudProviderMetrics, withMetrics } from '../cloudprovider/metrics-decorator.js';
import { UnavailableOfferingsCache } from '../cloudprovider/unavailable-offerings.js';
import { ClientNodeCluster } from '../kube/client-node/client-node-cluster.js';
import type { KubeRequestTimeouts } from '../kube/client-node/request-deadline.js';
import type { ClusterPort } from '../kube/port.js';
import {
  type OperatorControllerOptions,
  type OperatorControllers,
  operatorControllers,
} from './controllers.js';
import { fencedCluster } from './leader-election/fenced-cluster.js';
import { type LeaderElectionConfig, LeaderElector } from './leader-election/leader-elector.js';
import type { ProviderInstance, ProviderPlugin } from './plugin/provider-plugin.js';
import { buildInfo } from './runtime/build-info.js';
import type { Controller } from './runtime/controller.js';
import { DedupingEventRecorder } from './runtime/event-dedupe.js';
import { ClusterEventRecorder, type EventRecorder } from './runtime/event-recorder.js';
import { Manager } from './runtime/manager.js';

/** The field manager (and User-Agent) of the operator's writes. */
const OperatorFieldManager = 'nodewright';

/** What the container is configured with: the operator's options, already parsed. */
export interface OperatorConfig {
  readonly plugin: ProviderPlugin;
  readonly clusterName: string;
  readonly settings: Readonly<Record<string, string>>;
  /** Where the cluster is; ignored when `cluster` is given. */
  readonly kubeConfig?: KubeConfig;
  /** A ready-made cluster port (tests: MemoryCluster); default a ClientNodeCluster from `kubeConfig`. */
  readonly cluster?: ClusterPort;
  /** Undefined: no leader election, this replica always leads. */
  readonly leaderElection?: LeaderElectionConfig;
  readonly controllers?: OperatorControllerOptions;
  /** More controllers, built once the rest is wired (e.g. `metricsControllers(...)`). */
  readonly extraControllers?: (context: ExtraControllerContext) => readonly Controller[];
  /** Deadlines of API server requests and list pages; default DefaultKubeRequestTimeouts. */
  readonly kubeRequestTimeouts?: Partial<KubeRequestTimeouts>;
  /**
   * How long one reconcile may run, for controllers that set no deadline of their own; default
   * DefaultReconcileDeadlineMs (5 min). See `Controller.reconcileDeadlineMs`.
   */
  readonly reconcileDeadlineMs?: number;
  /** The release and Node.js running, exported as `karpenter_build_info`; default `unknown`. */
  readonly build?: { readonly version: string; readonly nodeVersion: string };
}

/** What an extra controller factory may use. */
export interface ExtraControllerContext {
  readonly cluster: ClusterPort;
  readonly clock: Clock;
  readonly registry: Registry;
  readonly cloudProvider: CloudProvider;
  readonly wired: OperatorControllers;
}

/** The container's tokens; typed, so `container.get(Tokens.Manager)` is a Manager. */
export const Tokens = {
  Config: Symbol('OperatorConfig') as ServiceIdentifier<OperatorConfig>,
  Clock: Symbol('Clock') as ServiceIdentifier<Clock>,
  Timers: Symbol('Timers') as ServiceIdentifier<Timers>,
  Logger: Symbol('Logger') as ServiceIdentifier<Logger>,
  Registry: Symbol('Registry') as ServiceIdentifier<Registry>,
  Cluster: Symbol('ClusterPort') as ServiceIdentifier<ClusterPort>,
  /** The cluster as controllers, the provider and events write to it: fenced by the Lease. */
  ControllerCluster: Symbol('ControllerClusterPort') as ServiceIdentifier<ClusterPort>,
  Events: Symbol('EventRecorder') as ServiceIdentifier<EventRecorder>,
  UnavailableOfferings: Symbol('UnavailableOfferings') as ServiceIdentifier<UnavailableOfferingsCache>,
  Provider: Symbol('ProviderInstance') as ServiceIdentifier<ProviderInstance>,
  CloudProvider: Symbol('CloudProvider') as ServiceIdentifier<CloudProvider>,
  Controllers: Symbol('Controllers') as ServiceIdentifier<readonly Controller[]>,
  Manager: Symbol('Manager') as ServiceIdentifier<Manager>,
  LeaderElector: Symbol('LeaderElector') as ServiceIdentifier<LeaderElector | undefined>,
} as const;

/** The process-level services a container is built around. */
export interface OperatorEnvironment {
  readonly clock: Clock;
  readonly timers: Timers;
  readonly logger: Logger;
}

/**
 * The operator's inversify Container: every binding a singleton, built by a factory from its
 * dependencies' tokens (`toResolvedValue`), so core classes need no decorators. The provider
 * is built asynchronously (`plugin.create`), so resolve with `getAsync`.
 */
export function operatorContainer(config: OperatorConfig, env: OperatorEnvironment): Container {
  const c = new Container({ defaultScope: 'Singleton' });
  c.bind(Tokens.Config).toConstantValue(config);
  c.bind(Tokens.Clock).toConstantValue(env.clock);
  c.bind(Tokens.Timers).toConstantValue(env.timers);
  c.bind(Tokens.Logger).toConstantValue(env.logger);
  c.bind(Tokens.Registry).toResolvedValue(() => {
    const registry = new Registry();
    // process_resident_memory_bytes and friends, read at each scrape.
    collectDefaultMetrics({ register: registry });
    buildInfo(registry, config.build?.version ?? 'unknown', config.build?.nodeVersion ?? 'unknown');
    return registry;
  });
  c.bind(Tokens.Cluster).toResolvedValue(
    (cfg: OperatorConfig, clock: Clock, timers: Timers, logger: Logger): ClusterPort => {
      if (cfg.cluster !== undefined) return cfg.cluster;
      if (cfg.kubeConfig === undefined)
        throw new Error('operator: neither a cluster nor a kubeconfig was given');
      return new ClientNodeCluster({
        kubeConfig: cfg.kubeConfig,
        fieldManager: OperatorFieldManager,
        logger: logger.child({ component: 'kube' }),
        clock,
        timers,
        ...(cfg.kubeRequestTimeouts === undefined ? {} : { requestTimeouts: cfg.kubeRequestTimeouts }),
      });
    },
    [Tokens.Config, Tokens.Clock, Tokens.Timers, Tokens.Logger],
  );
  c.bind(Tokens.Events).toResolvedValue(
    (cluster: ClusterPort, logger: Logger, clock: Clock) =>
      new DedupingEventRecorder(new ClusterEventRecorder(cluster, logger), clock),
    [Tokens.ControllerCluster, Tokens.Logger, Tokens.Clock],
  );
  c.bind(Tokens.UnavailableOfferings).toResolvedValue(
    (clock: Clock) => new UnavailableOfferingsCache(clock),
    [Tokens.Clock],
  );
  c.bind(Tokens.Provider).toResolvedValue(
    (
      cfg: OperatorConfig,
      cluster: ClusterPort,
      clock: Clock,
      timers: Timers,
      logger: Logger,
      registry: Registry,
      events: EventRecorder,
      unavailableOfferings: UnavailableOfferingsCache,
    ) =>
      cfg.plugin.create({
        cluster,
        clock,
        timers,
        logger: logger.child({ provider: cfg.plugin.name }),
        registry,
        events,
        clusterName: cfg.clusterName,
        settings: cfg.settings,
        unavailableOfferings,
      }),
    [
      Tokens.Config,
      Tokens.ControllerCluster,
      Tokens.Clock,
      Tokens.Timers,
      Tokens.Logger,
      Tokens.Registry,
      Tokens.Events,
      Tokens.UnavailableOfferings,
    ],
  );
  c.bind(Tokens.CloudProvider).toResolvedValue(
    (provider: ProviderInstance, registry: Registry) =>
      withMetrics(provider.cloudProvider, cloudProviderMetrics(registry)),
    [Tokens.Provider, Tokens.Registry],
  );
  c.bind(Tokens.Controllers).toResolvedValue(
    (
      cfg: OperatorConfig,
      cluster: ClusterPort,
      clock: Clock,
      registry: Registry,
      events: EventRecorder,
      provider: ProviderInstance,
      cloudProvider: CloudProvider,
    ) => {
      const wired = operatorControllers(
        { cluster, clock, registry, events, provider, cloudProvider },
        cfg.controllers,
      );
      const extra = cfg.extraControllers?.({ cluster, clock, registry, cloudProvider, wired }) ?? [];
      return [...wired.controllers, ...extra];
    },
    [
      Tokens.Config,
      Tokens.ControllerCluster,
      Tokens.Clock,
      Tokens.Registry,
      Tokens.Events,
      Tokens.Provider,
      Tokens.CloudProvider,
    ],
  );
  c.bind(Tokens.Manager).toResolvedValue(
    (
      cluster: ClusterPort,
      clock: Clock,
      timers: Timers,
      registry: Registry,
      logger: Logger,
      controllers: readonly Controller[],
    ) =>
      new Manager({
        cluster,
        clock,
        timers,
        registry,
        logger,
        ...(config.reconcileDeadlineMs === undefined
          ? {}
          : { reconcileDeadlineMs: config.reconcileDeadlineMs }),
      }).register(...controllers),
    [
      Tokens.ControllerCluster,
      Tokens.Clock,
      Tokens.Timers,
      Tokens.Registry,
      Tokens.Logger,
      Tokens.Controllers,
    ],
  );
  c.bind(Tokens.LeaderElector).toResolvedValue(
    (cfg: OperatorConfig, cluster: ClusterPort, clock: Clock, timers: Timers, logger: Logger) =>
      cfg.leaderElection === undefined
        ? undefined
        : new LeaderElector({ cluster, clock, timers, logger }, cfg.leaderElection),
    [Tokens.Config, Tokens.Cluster, Tokens.Clock, Tokens.Timers, Tokens.Logger],
  );
  // The elector writes its Lease through the bare port; everything else through the fence.
  c.bind(Tokens.ControllerCluster).toResolvedValue(
    (cluster: ClusterPort, elector: LeaderElector | undefined) =>
      elector === undefined ? cluster : fencedCluster(cluster, () => elector.writeRefusal()),
    [Tokens.Cluster, Tokens.LeaderElector],
  );
  return c;
}
