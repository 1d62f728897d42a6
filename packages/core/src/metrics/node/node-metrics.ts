import type { Node } from '../../apis/kubernetes/node.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { isOwnedByDaemonSet, isPodTerminal } from '../../kube/pod.js';
import {
  addResources,
  parseResourceList,
  type ResourceList,
  subtractResources,
} from '../../scheduling/resources/resource-list.js';
import { nodeMetricLabels, resourceTypeLabel } from '../labels.js';
import type { Series } from '../series.js';
import { metricPodRequests, podLimits } from './pod-resources.js';

/** What the node gauges report for one Node, per resource. */
export interface NodeResources {
  readonly allocatable: ResourceList;
  /** Requests of every running pod on the node, DaemonSet pods included (Karpenter's definition). */
  readonly podRequests: ResourceList;
  readonly podLimits: ResourceList;
  readonly daemonRequests: ResourceList;
  readonly daemonLimits: ResourceList;
  /** capacity - allocatable: what kubelet, the system and eviction thresholds hold back. */
  readonly systemOverhead: ResourceList;
}

/**
 * The node gauges' values for a Node and the pods bound to it. Finished pods (Succeeded,
 * Failed) hold nothing and are left out; allocatable falls back to capacity when the Node
 * reports none. Pure.
 *
 * @throws ResourceListError when a quantity on the Node or a pod does not parse.
 */
export function nodeResources(node: Pick<Node, 'status'>, pods: readonly Pod[]): NodeResources {
  const capacity = parseResourceList(node.status?.capacity);
  const allocatable =
    node.status?.allocatable === undefined ? capacity : parseResourceList(node.status.allocatable);
  const running = pods.filter((p) => !isPodTerminal(p));
  const daemons = running.filter(isOwnedByDaemonSet);
  return {
    allocatable,
    podRequests: addResources(...running.map(metricPodRequests)),
    podLimits: addResources(...running.map(podLimits)),
    daemonRequests: addResources(...daemons.map(metricPodRequests)),
    daemonLimits: addResources(...daemons.map(podLimits)),
    systemOverhead: subtractResources(capacity, allocatable),
  };
}

/**
 * One series per resource: the node's labels plus `resource_type`, valued in the resource's
 * base unit (cores, bytes, count).
 */
export function nodeSeries(node: Pick<Node, 'metadata'>, resources: ResourceList): Series[] {
  const labels = nodeMetricLabels(node);
  return [...resources].map(([name, q]) => ({
    labels: { ...labels, resource_type: resourceTypeLabel(name) },
    value: q.toNumber(),
  }));
}

/** A resource list as plain numbers in base units, by resource name (for cheap cluster-wide sums). */
export type ResourceNumbers = ReadonlyMap<string, number>;

/** `list` in base units as numbers. */
export function toNumbers(list: ResourceList): ResourceNumbers {
  return new Map([...list].map(([name, q]) => [name, q.toNumber()]));
}

/**
 * `karpenter_cluster_utilization_percent` per resource type: all pod requests over all
 * allocatable, in percent, for each resource some node can allocate (a zero total is skipped).
 * Numbers, not quantities: a ratio for a dashboard, summed over every node on each change.
 */
export function clusterUtilization(
  nodes: Iterable<{ readonly allocatable: ResourceNumbers; readonly podRequests: ResourceNumbers }>,
): Series<'resource_type'>[] {
  const allocatable = new Map<string, number>();
  const requests = new Map<string, number>();
  for (const n of nodes) {
    for (const [name, v] of n.allocatable) allocatable.set(name, (allocatable.get(name) ?? 0) + v);
    for (const [name, v] of n.podRequests) requests.set(name, (requests.get(name) ?? 0) + v);
  }
  const out: Series<'resource_type'>[] = [];
  for (const [name, total] of allocatable) {
    if (total === 0) continue;
    out.push({
      labels: { resource_type: resourceTypeLabel(name) },
      value: ((requests.get(name) ?? 0) / total) * 100,
    });
  }
  return out;
}
