import type { Controller } from '../operator/runtime/controller.js';
import type { MetricsDependencies } from './dependencies.js';
import { NodeMetricsController } from './node/node-metrics-controller.js';
import { NodePoolMetricsController } from './nodepool/nodepool-metrics-controller.js';
import { PodMetricsController } from './pod/pod-metrics-controller.js';

/**
 * The object metrics controllers, wired in one place: `metrics.node`, `metrics.pod` and
 * `metrics.nodepool`. They read `deps.state`, so the Manager must also run
 * `clusterStateController(deps.state)`, registered before them; `provisioningControllers(...)`
 * includes it by default:
 * `manager.register(...provisioningControllers({...base, state}), ...metricsControllers({state, clock, registry}))`.
 */
export function metricsControllers(deps: MetricsDependencies): Controller[] {
  return [
    new NodeMetricsController(deps),
    new PodMetricsController(deps),
    new NodePoolMetricsController(deps),
  ];
}
