import { Gauge, Histogram, type Registry, Summary } from 'prom-client';
import { reuse } from '../operator/runtime/metrics.js';
import { NodeLabelNames, NodePoolLabelNames, PodLabelNames } from './labels.js';
import { MetricNames } from './names.js';

/** The gauges (and the startup summary) the metrics controllers keep, with Karpenter's names and labels. */
export interface ObjectMetrics {
  readonly nodesAllocatable: Gauge<NodeLabel>;
  readonly nodesTotalPodRequests: Gauge<NodeLabel>;
  readonly nodesTotalPodLimits: Gauge<NodeLabel>;
  readonly nodesTotalDaemonRequests: Gauge<NodeLabel>;
  readonly nodesTotalDaemonLimits: Gauge<NodeLabel>;
  readonly nodesSystemOverhead: Gauge<NodeLabel>;
  /** 1 per pod, labelled with where it runs and its phase. */
  readonly podsState: Gauge<PodLabel>;
  /** Seconds from a pod's creation until it is Ready, for pods seen before they were. */
  readonly podsStartupDuration: Summary;
  /** Seconds from a pod's creation until it was bound, for pods seen before they were. */
  readonly podsBoundDuration: Histogram;
  /** Seconds from the pass that placed a pod until it was bound. */
  readonly podsProvisioningBoundDuration: Histogram;
  /** Seconds from the pass that placed a pod until it was Ready. */
  readonly podsProvisioningStartupDuration: Histogram;
  readonly nodePoolsUsage: Gauge<'nodepool' | 'resource_type'>;
  readonly nodePoolsLimit: Gauge<'nodepool' | 'resource_type'>;
  readonly nodePoolsAllowedDisruptions: Gauge<'nodepool' | 'reason'>;
  readonly nodePoolsNodesConsumingBudgets: Gauge<'nodepool' | 'reason'>;
}

/**
 * Karpenter's buckets for its duration histograms: controller-runtime's, with more above 60 s for
 * waits that have no timeout.
 */
export const DurationBuckets = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5,
  1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60, 120, 150, 300, 450, 600,
];

export type NodeLabel = (typeof NodeLabelNames)[number];
export type PodLabel = (typeof PodLabelNames)[number];

/** The metrics controllers' series in `registry` (reusing any already registered there). */
export function objectMetrics(registry: Registry): ObjectMetrics {
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    reuse(registry, name, () => new Gauge<L>({ name, help, labelNames, registers: [registry] }));
  const node = (name: string, help: string) => gauge(name, help, NodeLabelNames);
  return {
    nodesAllocatable: node(
      MetricNames.NodesAllocatable,
      'Node allocatable are the resources allocatable by nodes.',
    ),
    nodesTotalPodRequests: node(
      MetricNames.NodesTotalPodRequests,
      'Node total pod requests are the resources requested by pods bound to nodes, including the DaemonSet pods.',
    ),
    nodesTotalPodLimits: node(
      MetricNames.NodesTotalPodLimits,
      'Node total pod limits are the resources specified by pod limits, including the DaemonSet pods.',
    ),
    nodesTotalDaemonRequests: node(
      MetricNames.NodesTotalDaemonRequests,
      'Node total daemon requests are the resource requested by DaemonSet pods bound to nodes.',
    ),
    nodesTotalDaemonLimits: node(
      MetricNames.NodesTotalDaemonLimits,
      'Node total daemon limits are the resources specified by DaemonSet pod limits.',
    ),
    nodesSystemOverhead: node(
      MetricNames.NodesSystemOverhead,
      "Node system daemon overhead are the resources reserved for system overhead, the difference between the node's capacity and allocatable values are reported by the status.",
    ),
    podsState: gauge(
      MetricNames.PodsState,
      'Pod state is the current state of pods. This metric can be used several ways as it is labeled by the pod name, namespace, owner, node, nodepool name, zone, architecture, capacity type, instance type, pod phase, and pod readiness.',
      PodLabelNames,
    ),
    podsStartupDuration: reuse(
      registry,
      MetricNames.PodsStartupDuration,
      () =>
        new Summary({
          name: MetricNames.PodsStartupDuration,
          help: 'The time from pod creation until the pod is running.',
          percentiles: [0, 0.5, 0.9, 0.99, 1],
          registers: [registry],
        }),
    ),
    podsBoundDuration: reuse(
      registry,
      MetricNames.PodsBoundDuration,
      () =>
        new Histogram({
          name: MetricNames.PodsBoundDuration,
          help: 'The time from pod creation until the pod is bound.',
          buckets: DurationBuckets,
          registers: [registry],
        }),
    ),
    podsProvisioningBoundDuration: reuse(
      registry,
      MetricNames.PodsProvisioningBoundDuration,
      () =>
        new Histogram({
          name: MetricNames.PodsProvisioningBoundDuration,
          help: 'The time from when nodewright first thinks the pod can schedule until it binds. Note: this calculated from a point in memory, not by the pod creation timestamp.',
          buckets: DurationBuckets,
          registers: [registry],
        }),
    ),
    podsProvisioningStartupDuration: reuse(
      registry,
      MetricNames.PodsProvisioningStartupDuration,
      () =>
        new Histogram({
          name: MetricNames.PodsProvisioningStartupDuration,
          help: 'The time from when nodewright first thinks the pod can schedule until the pod is running. Note: this calculated from a point in memory, not by the pod creation timestamp.',
          buckets: DurationBuckets,
          registers: [registry],
        }),
    ),
    nodePoolsUsage: gauge(
      MetricNames.NodePoolsUsage,
      'The amount of resources that have been provisioned for a nodepool. Labeled by nodepool name and resource type.',
      NodePoolLabelNames,
    ),
    nodePoolsLimit: gauge(
      MetricNames.NodePoolsLimit,
      'Limits specified on the nodepool that restrict the quantity of resources provisioned. Labeled by nodepool name and resource type.',
      NodePoolLabelNames,
    ),
    nodePoolsAllowedDisruptions: gauge(
      MetricNames.NodePoolsAllowedDisruptions,
      'The number of nodes for a given NodePool that can be concurrently disrupting at a point in time. Labeled by NodePool. Note that allowed disruptions can change very rapidly, as new nodes may be created and others may be deleted at any point.',
      ['nodepool', 'reason'],
    ),
    nodePoolsNodesConsumingBudgets: gauge(
      MetricNames.NodePoolsNodesConsumingBudgets,
      'The number of nodes consuming the budget of a nodepool at a point in time. Labeled by NodePool.',
      ['nodepool', 'reason'],
    ),
  };
}
