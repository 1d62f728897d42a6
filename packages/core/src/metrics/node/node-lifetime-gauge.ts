import { Gauge, type Registry } from 'prom-client';
import type { Node } from '../../apis/kubernetes/node.js';
import { NodeLabelNames, nodeMetricLabels } from '../labels.js';
import { MetricNames } from '../names.js';

/**
 * Registers `karpenter_nodes_current_lifetime_seconds` (the node labels, `node_name`): each
 * Node's age, computed from `nodes` when scraped, so it is never stale and costs nothing between
 * scrapes (Karpenter sets it at each reconcile). A Node without a parsable creation time has no
 * series. A gauge already in the registry (a manager restarted on it) is replaced.
 */
export function registerNodeLifetimeGauge(
  registry: Registry,
  nodes: () => Iterable<Node>,
  now: () => number,
): void {
  registry.removeSingleMetric(MetricNames.NodesCurrentLifetime);
  new Gauge({
    name: MetricNames.NodesCurrentLifetime,
    help: 'Node age in seconds',
    labelNames: NodeLabelNames.filter((l) => l !== 'resource_type'),
    registers: [registry],
    collect() {
      this.reset();
      const at = now();
      for (const node of nodes()) {
        const created = Date.parse(node.metadata.creationTimestamp ?? '');
        if (Number.isNaN(created)) continue;
        this.set(nodeMetricLabels(node), Math.max(0, at - created) / 1000);
      }
    },
  });
}
