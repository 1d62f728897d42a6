import type { Registry } from 'prom-client';
import type { Clock } from '../clock/clock.js';
import type { CloudProvider } from '../cloudprovider/cloud-provider.js';
import {
  DisruptionController,
  type DisruptionControllerOptions,
} from '../disruption/controller/disruption-controller.js';
import { disruptionMetrics } from '../disruption/controller/metrics.js';
import type { ClusterPort } from '../kube/port.js';
import { type LifecycleOptions, lifecycleControllers } from '../lifecycle/controllers.js';
import { type LifecycleMetrics, lifecycleMetrics } from '../lifecycle/metrics.js';
import { readinessFromReadyCondition } from '../lifecycle/node-class-readiness.js';
import { metricsControllers } from '../metrics/controllers.js';
import { type ProvisioningOptions, provisioningControllers } from '../provisioning/controllers.js';
import { ClusterState } from '../state/cluster-state.js';
import type { ProviderInstance } from './plugin/provider-plugin.js';
import type { Controller } from './runtime/controller.js';
import type { EventRecorder } from './runtime/event-recorder.js';

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
 * Every controller one operator runs, wired in one place: `state.cluster` and
 * `provisioning.provisioner`, the lifecycle controllers (NodeClass readiness read the
 * provider's way, else from the NodeClass's `Ready` condition), the disruption loop, the
 * `metrics.*` controllers (Karpenter's node, pod and NodePool gauges), the provider's own
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
    ...deps.provider.controllers,
    ...(options.extra ?? []),
  ];
  return { controllers, state, lifecycleMetrics: lMetrics };
}
