import type { Registry } from 'prom-client';
import { MetricNames } from '../metrics/names.js';
import { scrapedGauge } from '../operator/runtime/metrics.js';

/**
 * Registers `karpenter_cluster_state_node_count` (Nodes plus NodeClaims without a Node yet), read
 * from `count` when scraped. Counting walks every Node and NodeClaim; setting it on every change
 * made a scale-up of thousands of nodes quadratic.
 */
export function registerClusterStateMetrics(registry: Registry, count: () => number): void {
  scrapedGauge(
    registry,
    {
      name: MetricNames.ClusterStateNodeCount,
      help: 'Current count of nodes in cluster state',
      labelNames: [],
    },
    () => [[{}, count()]],
  );
}
