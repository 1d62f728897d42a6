import type { Registry } from 'prom-client';
import type { Node } from '../../apis/kubernetes/node.js';
import { scrapedGauge } from '../../operator/runtime/metrics.js';
import { NodeLabelNames, nodeMetricLabels } from '../labels.js';
import { MetricNames } from '../names.js';

/**
 * Registers `karpenter_nodes_current_lifetime_seconds` (the node labels, `node_name`): each
 * Node's age, computed from `nodes` when scraped, so it is never stale and costs nothing between
 * scrapes (Karpenter sets it at each reconcile). A Node without a parsable creation time has no
 * series.
 */
export function registerNodeLifetimeGauge(
  registry: Registry,
  nodes: () => Iterable<Node>,
  now: () => number,
): void {
  scrapedGauge(
    registry,
    {
      name: MetricNames.NodesCurrentLifetime,
      help: 'Node age in seconds',
      labelNames: NodeLabelNames.filter((l) => l !== 'resource_type'),
    },
    function* () {
      const at = now();
      for (const node of nodes()) {
        const created = Date.parse(node.metadata.creationTimestamp ?? '');
        if (!Number.isNaN(created)) yield [nodeMetricLabels(node), Math.max(0, at - created) / 1000];
      }
    },
  );
}
