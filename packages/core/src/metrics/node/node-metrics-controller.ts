import type { Pod } from '../../apis/kubernetes/pod.js';
import type { ObjectKey } from '../../kube/object.js';
import { Nodes, Pods } from '../../kube/resource-types.js';
import {
  type Controller,
  type ReconcileContext,
  type ReconcileResult,
  watchMapped,
  watchSelf,
} from '../../operator/runtime/controller.js';
import { scrapedGauge } from '../../operator/runtime/metrics.js';
import type { ClusterState } from '../../state/cluster-state.js';
import { logUnreadable, type MetricsDependencies } from '../dependencies.js';
import { type ObjectMetrics, objectMetrics } from '../gauges.js';
import { MetricNames } from '../names.js';
import { SeriesTracker } from '../series.js';
import { registerNodeLifetimeGauge } from './node-lifetime-gauge.js';
import {
  clusterUtilization,
  type NodeResources,
  nodeResources,
  nodeSeries,
  type ResourceNumbers,
  toNumbers,
} from './node-metrics.js';

/**
 * `metrics.node`: per Node, `karpenter_nodes_allocatable`, `_total_pod_requests`,
 * `_total_pod_limits`, `_total_daemon_requests`, `_total_daemon_limits` and `_system_overhead`
 * (labels: the well-known node labels, `node_name`, `resource_type`). Runs for a Node when it
 * or a pod bound to it changes; a Node that is gone loses all its series. Computed at scrape
 * time: each Node's age, `karpenter_nodes_current_lifetime_seconds`, and across all Nodes
 * `karpenter_cluster_utilization_percent{resource_type}`, which summed on every reconcile would
 * cost a pass over the fleet per pod bound.
 */
export class NodeMetricsController implements Controller {
  readonly name = 'metrics.node';
  readonly watches;
  readonly #state: ClusterState;
  readonly #metrics: ObjectMetrics;
  readonly #series = new SeriesTracker();
  /** Each Node's latest resources, for the cluster-wide utilization. */
  readonly #totals = new Map<string, { allocatable: ResourceNumbers; podRequests: ResourceNumbers }>();

  constructor(deps: MetricsDependencies) {
    this.#state = deps.state;
    this.#metrics = objectMetrics(deps.registry);
    registerNodeLifetimeGauge(
      deps.registry,
      () => deps.state.nodes(),
      () => deps.clock.now(),
    );
    scrapedGauge(
      deps.registry,
      {
        name: MetricNames.ClusterUtilization,
        help: 'Utilization of allocatable resources by pod requests',
        labelNames: ['resource_type'],
      },
      () => clusterUtilization(this.#totals.values()).map((s) => [s.labels, s.value] as const),
    );
    this.watches = [
      watchSelf(Nodes),
      watchMapped(Pods, (pod, _cache, event) => {
        const names = new Set([pod.spec?.nodeName, (event.previous as Pod | undefined)?.spec?.nodeName]);
        return [...names].flatMap((name) => (name === undefined || name === '' ? [] : [{ name }]));
      }),
    ];
  }

  async reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const node = this.#state.node(key.name);
    if (node === undefined) {
      this.#forget(key.name);
    } else {
      let resources: NodeResources | undefined;
      try {
        resources = nodeResources(node, this.#state.podsOn(key.name));
      } catch (err) {
        logUnreadable(context.logger, 'Node', key.name, err);
      }
      if (resources === undefined) this.#forget(key.name);
      else {
        const m = this.#metrics;
        const set = (gauge: typeof m.nodesAllocatable, list: NodeResources['allocatable']) =>
          this.#series.replace(key.name, gauge, nodeSeries(node, list));
        set(m.nodesAllocatable, resources.allocatable);
        set(m.nodesTotalPodRequests, resources.podRequests);
        set(m.nodesTotalPodLimits, resources.podLimits);
        set(m.nodesTotalDaemonRequests, resources.daemonRequests);
        set(m.nodesTotalDaemonLimits, resources.daemonLimits);
        set(m.nodesSystemOverhead, resources.systemOverhead);
        this.#totals.set(key.name, {
          allocatable: toNumbers(resources.allocatable),
          podRequests: toNumbers(resources.podRequests),
        });
      }
    }
    return undefined;
  }

  #forget(name: string): void {
    this.#series.remove(name);
    this.#totals.delete(name);
  }
}
