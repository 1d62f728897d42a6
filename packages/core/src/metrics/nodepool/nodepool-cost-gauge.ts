import { Counter, type Registry } from 'prom-client';
import type { Node } from '../../apis/kubernetes/node.js';
import { Labels } from '../../apis/labels.js';
import { scrapedGauge } from '../../operator/runtime/metrics.js';
import { MetricNames } from '../names.js';

/** An hourly price per offering (`instance_type`, `capacity_type`, `zone`), undefined when not known. */
export type OfferingPriceLookup = () => Promise<
  (type: string, capacityType: string, zone: string) => number | undefined
>;

/**
 * The prices the provider's catalog exported to `registry`
 * (`karpenter_cloudprovider_instance_type_offering_price_estimate`), read when asked: the
 * prices nodewright decides with, so the cost it reports is the cost it optimises.
 */
export function exportedOfferingPrices(registry: Registry): OfferingPriceLookup {
  return async () => {
    const prices = new Map<string, number>();
    const metric = registry.getSingleMetric(MetricNames.InstanceTypeOfferingPrice);
    for (const v of (await metric?.get())?.values ?? []) {
      const l = v.labels as Record<string, string | number | undefined>;
      prices.set(`${l.instance_type}|${l.capacity_type}|${l.zone}`, v.value);
    }
    return (type, capacityType, zone) => prices.get(`${type}|${capacityType}|${zone}`);
  };
}

/**
 * Registers `karpenter_nodepools_cost_total{nodepool}`: the hourly price of every Node of each
 * NodePool, summed when scraped from the nodes `nodes()` gives and the offering prices `prices`
 * gives (Karpenter's "total cost of the nodepool from Karpenter's perspective"; not a bill).
 * A Node whose offering has no known price adds nothing.
 */
export function registerNodePoolCostGauge(
  registry: Registry,
  nodes: () => Iterable<Node>,
  prices: OfferingPriceLookup,
): void {
  scrapedGauge(
    registry,
    {
      name: MetricNames.NodePoolsCost,
      help: "Total cost of the nodepool from nodewright's perspective: the sum of its nodes' hourly offering prices. Units are determined by the cloud provider. Not an authoritative source for billing.",
      labelNames: ['nodepool'],
    },
    async () => {
      const priceOf = await prices();
      const totals = new Map<string, number>();
      for (const node of nodes()) {
        const labels = node.metadata.labels ?? {};
        const pool = labels[Labels.NodePool];
        if (pool === undefined || pool === '') continue;
        const price = priceOf(
          labels[Labels.InstanceType] ?? '',
          labels[Labels.CapacityType] ?? '',
          labels[Labels.Zone] ?? '',
        );
        totals.set(pool, (totals.get(pool) ?? 0) + (price ?? 0));
      }
      return [...totals].map(([nodepool, cost]) => [{ nodepool }, cost] as const);
    },
  );
  registerCostTrackerErrors(registry, nodes, prices);
}

/**
 * Registers `karpenter_nodepools_cost_tracker_errors_total{nodepool}`: Nodes of a pool whose
 * offering (instance type, capacity type, zone) has no known price, so the pool's cost leaves them
 * out. Karpenter counts a NodeClaim its cost tracker cannot price; here a Node is counted once
 * when a scrape first finds it unpriced, and again only if it is priced and then loses its price.
 * A Node still missing one of the three labels is not counted (it is still registering, as
 * Karpenter skips a claim without them).
 */
function registerCostTrackerErrors(
  registry: Registry,
  nodes: () => Iterable<Node>,
  prices: OfferingPriceLookup,
): void {
  registry.removeSingleMetric(MetricNames.NodePoolsCostTrackerErrors);
  // Per registration, not per module: a restarted controller starts its own count.
  let unpriced = new Set<string>();
  new Counter({
    name: MetricNames.NodePoolsCostTrackerErrors,
    help: 'Number of errors encountered during cost tracking operations. Labeled by nodepool.',
    labelNames: ['nodepool'],
    registers: [registry],
    async collect() {
      const priceOf = await prices();
      const now = new Set<string>();
      for (const node of nodes()) {
        const labels = node.metadata.labels ?? {};
        const pool = labels[Labels.NodePool] ?? '';
        const type = labels[Labels.InstanceType] ?? '';
        const capacityType = labels[Labels.CapacityType] ?? '';
        const zone = labels[Labels.Zone] ?? '';
        if (pool === '' || type === '' || capacityType === '' || zone === '') continue;
        if (priceOf(type, capacityType, zone) !== undefined) continue;
        const name = node.metadata.name ?? '';
        now.add(name);
        if (!unpriced.has(name)) this.inc({ nodepool: pool });
      }
      unpriced = now;
    },
  });
}
