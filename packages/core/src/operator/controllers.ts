import type { Registry } from 'prom-client';
import { Labels } from '../apis/labels.js';
import type { Clock } from '../clock/clock.js';
import type { CloudProvider } from '../cloudprovider/cloud-provider.js';
import {
  DisruptionController,
  type DisruptionControllerOptions,
} from '../disruption/controller/disruption-controller.js';
import { disruptionMetrics } from '../disruption/controller/metrics.js';
import type { ClusterPort } from '../kube/port.js';
import { groupOf, type ResourceType } from '../kube/resource-type.js';
import { NodeClaims, NodePools, Nodes } from '../kube/resource-types.js';
import type { LifecycleDependencies } from '../lifecycle/dependencies.js';
import { type LifecycleMetrics, lifecycleMetrics } from '../lifecycle/metrics.js';
import type { MetricsDependencies } from '../metrics/dependencies.js';
import { NodeMetricsController } from '../metrics/node/node-metrics-controller.js';
import { NodePoolMetricsController } from '../metrics/nodepool/nodepool-metrics-controller.js';
import { PodMetricsController } from '../metrics/pod/pod-metrics-controller.js';
import { ConditionAges } from '../metrics/status/condition-ages.js';
import {
  DefaultBuckets,
  prometheusLabelOf,
  TransitionBuckets,
} from '../metrics/status/status-condition-metrics.js';
import { StatusConditionMetricsController } from '../metrics/status/status-condition-metrics-controller.js';
import { Terminations } from '../metrics/status/terminations.js';
import { NodeHealthController, type NodeHealthOptions } from '../node/health/node-health-controller.js';
import { NodeTerminationController } from '../node/termination/node-termination-controller.js';
import {
  NodeClaimDisruptionController,
  type NodeClaimDisruptionOptions,
} from '../nodeclaim/drift/nodeclaim-disruption-controller.js';
import { ExpirationController } from '../nodeclaim/expiration/expiration-controller.js';
import {
  GarbageCollectionController,
  type GarbageCollectionOptions,
} from '../nodeclaim/garbage-collection/garbage-collection-controller.js';
import { interruptionController } from '../nodeclaim/interruption/interruption-controller.js';
import {
  NodeClaimLifecycleController,
  type NodeClaimLifecycleOptions,
} from '../nodeclaim/lifecycle/nodeclaim-lifecycle-controller.js';
import { NodePoolCounterController } from '../nodepool/counter/nodepool-counter-controller.js';
import { NodePoolHashController } from '../nodepool/hash/nodepool-hash-controller.js';
import {
  alwaysReady,
  type NodeClassReadinessCheck,
  readinessFromReadyCondition,
} from '../nodepool/readiness/node-class-readiness.js';
import { NodePoolReadinessController } from '../nodepool/readiness/nodepool-readiness-controller.js';
import { provisioningMetrics } from '../provisioning/metrics.js';
import { Provisioner, type ProvisionerOptions } from '../provisioning/provisioner.js';
import {
  ProvisionerController,
  type ProvisionerControllerOptions,
} from '../provisioning/provisioner-controller.js';
import { registerSchedulerUnfinishedWork } from '../provisioning/unfinished-work.js';
import { ClusterState } from '../state/cluster-state.js';
import { clusterStateController } from '../state/cluster-state-controller.js';
import type { ProviderInstance } from './plugin/provider-plugin.js';
import type { Controller } from './runtime/controller.js';
import type { EventRecorder } from './runtime/event-recorder.js';

// Every controller the operator runs is constructed in this file, in registration order:
//
//   state.cluster                 state/cluster-state-controller.ts        provisioningControllers
//   provisioning.provisioner      provisioning/provisioner-controller.ts   provisioningControllers
//   nodeclaim.lifecycle           nodeclaim/lifecycle/                     lifecycleControllers
//   node.termination              node/termination/                        lifecycleControllers
//   node.health                   node/health/                             lifecycleControllers
//   nodeclaim.expiration          nodeclaim/expiration/                    lifecycleControllers
//   nodeclaim.disruption          nodeclaim/drift/                         lifecycleControllers
//   nodeclaim.garbagecollection   nodeclaim/garbage-collection/            lifecycleControllers
//   nodepool.hash                 nodepool/hash/                           lifecycleControllers
//   nodepool.counter              nodepool/counter/                        lifecycleControllers
//   nodepool.readiness            nodepool/readiness/                      lifecycleControllers
//   nodeclaim.interruption        nodeclaim/interruption/                  lifecycleControllers (when the provider has notices)
//   disruption                    disruption/controller/                   operatorControllers
//   metrics.node, .pod, .nodepool metrics/{node,pod,nodepool}/             metricsControllers
//   nodepool.status.metrics, nodeclaim.status.metrics, node.status.metrics, <nodeclass>.status.metrics
//                                 metrics/status/                          statusConditionMetricsControllers
//   the provider's own            its ProviderPlugin                       operatorControllers
//
// The groups are functions so the simulator and test harnesses can run a subset.

/** What the provisioning controllers are built from. */
export interface ProvisioningDependencies {
  readonly cluster: ClusterPort;
  readonly cloudProvider: CloudProvider;
  readonly clock: Clock;
  readonly events: EventRecorder;
  /** The scheduler metrics go here. */
  readonly registry: Registry;
  /** `karpenter_nodeclaims_created_total`; the lifecycle controllers' (`lifecycleMetrics(registry)`). */
  readonly lifecycleMetrics: LifecycleMetrics;
  /** Shared with every other reader of cluster state (disruption, ...). */
  readonly state: ClusterState;
}

/** Options of the provisioning controllers. */
export interface ProvisioningOptions extends ProvisionerControllerOptions {
  readonly provisioner?: ProvisionerOptions;
  /**
   * Include `state.cluster`, which feeds `deps.state` from the informers. Default true; pass
   * false when it is registered once elsewhere for several modules sharing the state.
   */
  readonly includeClusterState?: boolean;
}

/**
 * The provisioning controllers: `state.cluster` (feeding the ClusterState; first, so the state
 * is up to date before the provisioner's watch looks at it) and `provisioning.provisioner`.
 * Register them on a Manager with the lifecycle controllers:
 * `manager.register(...provisioningControllers(deps), ...lifecycleControllers(lifecycleDeps))`.
 */
export function provisioningControllers(
  deps: ProvisioningDependencies,
  options: ProvisioningOptions = {},
): Controller[] {
  const provisioner = new Provisioner(
    {
      cluster: deps.cluster,
      cloudProvider: deps.cloudProvider,
      state: deps.state,
      clock: deps.clock,
      events: deps.events,
      lifecycleMetrics: deps.lifecycleMetrics,
      metrics: provisioningMetrics(deps.registry),
    },
    options.provisioner,
  );
  registerSchedulerUnfinishedWork(deps.registry, () => provisioner.unfinishedSolve());
  const controller = new ProvisionerController(
    { cluster: deps.cluster, clock: deps.clock, state: deps.state, provisioner },
    options,
  );
  return options.includeClusterState === false
    ? [controller]
    : [clusterStateController(deps.state), controller];
}

/** Options of the lifecycle controllers as a whole. */
export interface LifecycleOptions {
  readonly lifecycle?: NodeClaimLifecycleOptions;
  readonly garbageCollection?: GarbageCollectionOptions;
  /** `nodeclaim.disruption`: how often provider drift is re-checked, retry backoff. */
  readonly drift?: NodeClaimDisruptionOptions;
  /** `node.health` (node repair): how soon a repair held back by an unhealthy pool is retried. */
  readonly health?: NodeHealthOptions;
  /** How NodeClass readiness is read; default: every NodeClass is ready. */
  readonly nodeClassReadiness?: NodeClassReadinessCheck;
  /** NodeClass kinds to watch for readiness changes. */
  readonly nodeClassTypes?: readonly ResourceType[];
}

/**
 * The NodeClaim, Node and NodePool controllers: `nodeclaim.lifecycle`, `node.termination`,
 * `node.health`, `nodeclaim.expiration`, `nodeclaim.disruption` (the Drifted condition),
 * `nodeclaim.garbagecollection`, `nodepool.hash`, `nodepool.counter`, `nodepool.readiness`, and
 * `nodeclaim.interruption` when the cloud provider has an interruption source. Register them on
 * a Manager: `manager.register(...lifecycleControllers(deps))`.
 */
export function lifecycleControllers(
  deps: LifecycleDependencies,
  options: LifecycleOptions = {},
): Controller[] {
  return [
    new NodeClaimLifecycleController(deps, options.lifecycle),
    new NodeTerminationController(deps),
    new NodeHealthController(deps, options.health),
    new ExpirationController(deps),
    new NodeClaimDisruptionController(deps, options.drift),
    new GarbageCollectionController(deps, options.garbageCollection),
    new NodePoolHashController(deps),
    new NodePoolCounterController(deps),
    new NodePoolReadinessController({
      cluster: deps.cluster,
      clock: deps.clock,
      nodeClassReadiness: options.nodeClassReadiness ?? alwaysReady,
      ...(options.nodeClassTypes === undefined ? {} : { nodeClassTypes: options.nodeClassTypes }),
    }),
    ...(deps.cloudProvider.interruptions === undefined ? [] : [interruptionController(deps)]),
  ];
}

/**
 * The object metrics controllers: `metrics.node`, `metrics.pod` and `metrics.nodepool`. They
 * read `deps.state`, so the Manager must also run `clusterStateController(deps.state)`,
 * registered before them; `provisioningControllers(...)` includes it by default.
 */
export function metricsControllers(deps: MetricsDependencies): Controller[] {
  return [
    new NodeMetricsController(deps),
    new PodMetricsController(deps),
    new NodePoolMetricsController(deps),
  ];
}

/**
 * operatorpkg's status-condition and termination metrics, one controller per kind, configured as
 * Karpenter configures them: NodeClaims labelled by their NodeClass label (`<group>/<kind>` of
 * each of `nodeClassTypes`) and NodePool, Nodes by those, NodePool and `karpenter.sh/initialized`;
 * NodeClaims, NodePools and Nodes with Karpenter's transition buckets, each of the provider's
 * NodeClasses with the defaults; every kind but Node also in the deprecated generic families.
 */
export function statusConditionMetricsControllers(
  nodeClassTypes: readonly ResourceType[],
  registry: Registry,
  clock: Clock,
): Controller[] {
  const nodeClassLabels = nodeClassTypes.map((t) => `${groupOf(t)}/${t.kind.toLowerCase()}`);
  const kinds = [
    {
      type: NodeClaims,
      labels: [...nodeClassLabels, Labels.NodePool],
      buckets: TransitionBuckets,
      deprecated: true,
    },
    { type: NodePools, labels: [], buckets: TransitionBuckets, deprecated: true },
    {
      type: Nodes,
      labels: [...nodeClassLabels, Labels.NodePool, Labels.Initialized],
      buckets: TransitionBuckets,
      deprecated: false,
    },
    ...nodeClassTypes.map((type) => ({ type, labels: [], buckets: DefaultBuckets, deprecated: true })),
  ];
  const reported = kinds.map((k) => ({
    kind: k.type.kind,
    extraLabels: k.labels.map(prometheusLabelOf),
    generic: k.deprecated,
    buckets: k.buckets,
  }));
  const ages = new ConditionAges(registry, clock, reported);
  const terminations = new Terminations(registry, clock, reported, DefaultBuckets);
  return kinds.map(
    (k) =>
      new StatusConditionMetricsController(k.type, registry, {
        labels: k.labels,
        buckets: k.buckets,
        deprecated: k.deprecated,
        ages,
        terminations,
      }),
  );
}

/** What the operator's controllers are built from. */
export interface OperatorControllerDependencies {
  readonly cluster: ClusterPort;
  readonly clock: Clock;
  readonly events: EventRecorder;
  /** The operator's registry: scheduler, lifecycle, disruption and cluster-state metrics. */
  readonly registry: Registry;
  /** The built provider: its CloudProvider, NodeClass readiness and its own controllers. */
  readonly provider: ProviderInstance;
  /**
   * The CloudProvider core calls; default `provider.cloudProvider`. A composition root passes
   * it wrapped (`withMetrics`) here.
   */
  readonly cloudProvider?: CloudProvider;
  /** Shared cluster state; default a new one reporting into `registry`. */
  readonly state?: ClusterState;
}

/** Tuning of the operator's controllers; every field defaults to Karpenter's value. */
export interface OperatorControllerOptions {
  /** Batch windows (`--batch-idle-duration`, `--batch-max-duration`) and provisioner options. */
  readonly provisioning?: ProvisioningOptions;
  /** NodeClaim lifecycle and garbage collection; NodeClass readiness comes from the provider. */
  readonly lifecycle?: Omit<LifecycleOptions, 'nodeClassReadiness' | 'nodeClassTypes'>;
  readonly disruption?: DisruptionControllerOptions;
  /** More controllers to run alongside (metrics controllers, ...); registered last. */
  readonly extra?: readonly Controller[];
}

/** The wired controllers and the state and metrics they share. */
export interface OperatorControllers {
  /** In registration order: provisioning, lifecycle, disruption, metrics, the provider's, the extras. */
  readonly controllers: readonly Controller[];
  readonly state: ClusterState;
  readonly lifecycleMetrics: LifecycleMetrics;
}

/**
 * Every controller one operator runs (the table at the top of this file): provisioning, the
 * lifecycle controllers (NodeClass readiness read the provider's way, else from the NodeClass's
 * `Ready` condition), the disruption loop, the metrics controllers, the provider's own
 * controllers and `options.extra`.
 * Register the result on one Manager; metric families are created in `deps.registry` here, so
 * call this once per registry.
 */
export function operatorControllers(
  deps: OperatorControllerDependencies,
  options: OperatorControllerOptions = {},
): OperatorControllers {
  const cloudProvider = deps.cloudProvider ?? deps.provider.cloudProvider;
  const state = deps.state ?? new ClusterState({ clock: deps.clock, registry: deps.registry });
  const lMetrics = lifecycleMetrics(deps.registry);
  const base = { cluster: deps.cluster, cloudProvider, clock: deps.clock, events: deps.events };
  const lifecycle: LifecycleOptions = {
    ...options.lifecycle,
    nodeClassTypes: deps.provider.nodeClassTypes,
    nodeClassReadiness:
      deps.provider.nodeClassReadiness ??
      readinessFromReadyCondition(deps.cluster, deps.provider.nodeClassTypes),
  };
  const controllers: Controller[] = [
    ...provisioningControllers(
      { ...base, registry: deps.registry, lifecycleMetrics: lMetrics, state },
      options.provisioning,
    ),
    ...lifecycleControllers({ ...base, metrics: lMetrics }, lifecycle),
    new DisruptionController(
      { ...base, state, metrics: disruptionMetrics(deps.registry), lifecycleMetrics: lMetrics },
      options.disruption,
    ),
    ...metricsControllers({ state, clock: deps.clock, registry: deps.registry }),
    ...statusConditionMetricsControllers(deps.provider.nodeClassTypes, deps.registry, deps.clock),
    ...deps.provider.controllers,
    ...(options.extra ?? []),
  ];
  return { controllers, state, lifecycleMetrics: lMetrics };
}
