import { Gauge, type Registry } from 'prom-client';
import { MetricNames } from '../metrics/names.js';
import { reuse } from '../operator/runtime/metrics.js';

/** The cluster state's gauges, with Karpenter's names. */
export interface ClusterStateMetrics {
  /** `karpenter_cluster_state_node_count`: Nodes plus NodeClaims without a Node yet. */
  readonly nodeCount: Gauge;
}

/** The cluster state's metrics in `registry` (reusing any already registered there). */
export function clusterStateMetrics(registry: Registry): ClusterStateMetrics {
  return {
    nodeCount: reuse(
      registry,
      MetricNames.ClusterStateNodeCount,
      () =>
        new Gauge({
          name: MetricNames.ClusterStateNodeCount,
          help: 'Current count of nodes in cluster state',
          registers: [registry],
        }),
    ),
  };
}
