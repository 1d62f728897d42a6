import type { Registry } from 'prom-client';
import type { Clock } from '../clock/clock.js';
import type { CloudProvider } from '../cloudprovider/cloud-provider.js';
import type { ClusterPort } from '../kube/port.js';
import type { LifecycleMetrics } from '../lifecycle/metrics.js';
import type { Controller } from '../operator/runtime/controller.js';
import type { EventRecorder } from '../operator/runtime/event-recorder.js';
import type { ClusterState } from '../state/cluster-state.js';
import { clusterStateController } from '../state/cluster-state-controller.js';
import { provisioningMetrics } from './metrics.js';
import { Provisioner, type ProvisionerOptions } from './provisioner.js';
import { ProvisionerController, type ProvisionerControllerOptions } from './provisioner-controller.js';

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
  const controller = new ProvisionerController(
    { cluster: deps.cluster, clock: deps.clock, state: deps.state, provisioner },
    options,
  );
  return options.includeClusterState === false
    ? [controller]
    : [clusterStateController(deps.state), controller];
}
