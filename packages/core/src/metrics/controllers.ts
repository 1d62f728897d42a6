import type { Controller } from '../operator/runtime/controller.js';
import type { MetricsDependencies } from './dependencies.js';
import { NodeMetricsController } from './node/node-metrics-controller.js';
import { NodePoolMetricsController } from './nodepool/nodepool-metrics-controller.js';
import { PodMetricsController } from './pod/pod-metrics-controller.js';

/**
 * The object metrics controllers, wired in one place: `metrics.node`, `metrics.pod` and
 * `metrics.nodepool`. They read the ClusterState, so register them after
 * `clusterStateController(deps.state)` on the same Manager:
 * `manager.register(clusterStateController(state), ...metricsControllers({state, clock, registry}))`.
 */
export function metricsControllers(deps: MetricsDependencies): Controller[] {
  return [
    new NodeMetricsController(deps),
    new PodMetricsController(deps),
    new NodePoolMetricsController(deps),
  ];
}
