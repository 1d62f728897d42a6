import type { Node } from '../../apis/kubernetes/node.js';
import { Labels } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { Clock } from '../../clock/clock.js';
import type { KubeObject, ObjectKey } from '../../kube/object.js';
import { NodeClaims, NodePools, Nodes } from '../../kube/resource-types.js';
import {
  type Controller,
  type ReconcileContext,
  type ReconcileResult,
  watchMapped,
  watchSelf,
} from '../../operator/runtime/controller.js';
import type { ClusterState } from '../../state/cluster-state.js';
import { logUnreadable, type MetricsDependencies } from '../dependencies.js';
import { type ObjectMetrics, objectMetrics } from '../gauges.js';
import { SeriesTracker } from '../series.js';
import { exportedOfferingPrices, registerNodePoolCostGauge } from './nodepool-cost-gauge.js';
import {
  allowedDisruptionSeries,
  budgetNodeOf,
  consumingBudgetSeries,
  nodePoolResourceSeries,
} from './nodepool-metrics.js';

/**
 * How often a NodePool whose budgets have schedules is looked at again: a cron window opening
 * or closing changes its allowed disruptions without any object changing.
 */
const ScheduledBudgetRefreshMs = 60_000;

/**
 * The least time between two computations of one pool's figures. Each is a pass over the pool's
 * Nodes, and while a fleet of thousands registers, every Node's changes ask for one: bounded so,
 * the figures lag by at most this much and cost a pass a second, not a pass per change.
 */
const MinPoolRefreshMs = 1_000;

/**
 * Whether a Node's change can move its pool's budget figures: what `budgetNodeOf` reads, and
 * its deletion. Kubelets (and kwok) rewrite Node status every few seconds; each of those
 * reconciling the pool is a pass over all its Nodes, per heartbeat.
 */
export function budgetRelevantChange(previous: Node, node: Node): boolean {
  const deleting = (n: Node) => n.metadata.deletionTimestamp !== undefined;
  const a = budgetNodeOf(previous, deleting(previous));
  const b = budgetNodeOf(node, deleting(node));
  return (
    a.nodePool !== b.nodePool ||
    a.initialized !== b.initialized ||
    a.ready !== b.ready ||
    a.deleting !== b.deleting
  );
}

function poolsOf(object: KubeObject, previous: KubeObject | undefined): ObjectKey[] {
  const names = new Set([
    object.metadata.labels?.[Labels.NodePool],
    previous?.metadata.labels?.[Labels.NodePool],
  ]);
  return [...names].flatMap((name) => (name === undefined || name === '' ? [] : [{ name }]));
}

/**
 * `metrics.nodepool`: per NodePool, `karpenter_nodepools_usage{nodepool, resource_type}` (its
 * `status.resources`), `karpenter_nodepools_limit{nodepool, resource_type}` (`spec.limits`) and
 * `karpenter_nodepools_allowed_disruptions{nodepool, reason}`. Runs when the NodePool or one of
 * its Nodes or NodeClaims changes, and every minute for pools with scheduled budgets; a NodePool
 * that is gone loses all its series. `karpenter_nodepools_cost_total{nodepool}` is computed at
 * scrape time from the Nodes and the exported offering prices.
 */
export class NodePoolMetricsController implements Controller {
  readonly name = 'metrics.nodepool';
  readonly watches;
  readonly #state: ClusterState;
  readonly #clock: Clock;
  readonly #metrics: ObjectMetrics;
  readonly #series = new SeriesTracker();
  /** When each pool's figures were last computed. */
  readonly #computedAt = new Map<string, number>();

  constructor(deps: MetricsDependencies) {
    this.#state = deps.state;
    this.#clock = deps.clock;
    this.#metrics = objectMetrics(deps.registry);
    registerNodePoolCostGauge(deps.registry, () => deps.state.nodes(), exportedOfferingPrices(deps.registry));
    this.watches = [
      watchSelf(NodePools),
      watchMapped(Nodes, (node, _cache, event) => {
        const previous = event.previous as Node | undefined;
        if (event.type === 'MODIFIED' && previous !== undefined && !budgetRelevantChange(previous, node))
          return [];
        return poolsOf(node, previous);
      }),
      // A claim counts here only by marking its Node deleting (cluster state's isMarkedForDeletion).
      watchMapped(NodeClaims, (claim: NodeClaim, _cache, event) => {
        const previous = event.previous as NodeClaim | undefined;
        if (
          event.type === 'MODIFIED' &&
          previous !== undefined &&
          (previous.metadata.deletionTimestamp === undefined) ===
            (claim.metadata.deletionTimestamp === undefined) &&
          previous.metadata.labels?.[Labels.NodePool] === claim.metadata.labels?.[Labels.NodePool]
        )
          return [];
        return poolsOf(claim, previous);
      }),
    ];
  }

  async reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const pool = this.#state.nodePool(key.name);
    if (pool === undefined) {
      this.#series.remove(key.name);
      this.#computedAt.delete(key.name);
      return undefined;
    }
    const now = this.#clock.now();
    const last = this.#computedAt.get(key.name);
    if (last !== undefined && now - last < MinPoolRefreshMs) {
      return { requeueAfterMs: last + MinPoolRefreshMs - now };
    }
    this.#computedAt.set(key.name, now);
    const m = this.#metrics;
    try {
      this.#series.replace(
        key.name,
        m.nodePoolsUsage,
        nodePoolResourceSeries(key.name, pool.status?.resources),
      );
      this.#series.replace(key.name, m.nodePoolsLimit, nodePoolResourceSeries(key.name, pool.spec.limits));
    } catch (err) {
      logUnreadable(context.logger, 'NodePool', key.name, err);
      this.#series.remove(key.name);
    }
    const nodes = this.#state
      .nodes()
      .filter((n) => n.metadata.labels?.[Labels.NodePool] === key.name)
      .map((n) => budgetNodeOf(n, this.#state.isMarkedForDeletion(n.metadata.name ?? '')));
    this.#series.replace(key.name, m.nodePoolsAllowedDisruptions, allowedDisruptionSeries(pool, nodes, now));
    this.#series.replace(key.name, m.nodePoolsNodesConsumingBudgets, consumingBudgetSeries(pool, nodes, now));
    const scheduled = pool.spec.disruption.budgets.some((b) => b.schedule !== undefined);
    return scheduled ? { requeueAfterMs: ScheduledBudgetRefreshMs } : undefined;
  }
}
