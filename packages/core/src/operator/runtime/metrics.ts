import { Counter, Gauge, Histogram, type Metric, type Registry } from 'prom-client';

/** controller-runtime's metric names, so its dashboards work unchanged. */
export const RuntimeMetricNames = {
  ReconcileTotal: 'controller_runtime_reconcile_total',
  ReconcileErrors: 'controller_runtime_reconcile_errors_total',
  ReconcileTime: 'controller_runtime_reconcile_time_seconds',
  ActiveWorkers: 'controller_runtime_active_workers',
  MaxConcurrentReconciles: 'controller_runtime_max_concurrent_reconciles',
  WorkQueueDepth: 'workqueue_depth',
  WorkQueueAdds: 'workqueue_adds_total',
  WorkQueueRetries: 'workqueue_retries_total',
} as const;

/** The runtime's metrics in one registry. */
export interface RuntimeMetrics {
  /** `result`: success, error, requeue, requeue_after. */
  readonly reconcileTotal: Counter<'controller' | 'result'>;
  readonly reconcileErrors: Counter<'controller'>;
  readonly reconcileTime: Histogram<'controller'>;
  readonly activeWorkers: Gauge<'controller'>;
  readonly maxConcurrentReconciles: Gauge<'controller'>;
  readonly depth: Gauge<'name' | 'controller'>;
  readonly adds: Counter<'name' | 'controller'>;
  readonly retries: Counter<'name' | 'controller'>;
}

/**
 * The runtime metrics registered in `registry`; reuses those already there, so several managers
 * (or a restarted one) may share a registry.
 */
export function runtimeMetrics(registry: Registry): RuntimeMetrics {
  return {
    reconcileTotal: reuse(
      registry,
      RuntimeMetricNames.ReconcileTotal,
      () =>
        new Counter({
          name: RuntimeMetricNames.ReconcileTotal,
          help: 'Total number of reconciliations per controller',
          labelNames: ['controller', 'result'],
          registers: [registry],
        }),
    ),
    reconcileErrors: reuse(
      registry,
      RuntimeMetricNames.ReconcileErrors,
      () =>
        new Counter({
          name: RuntimeMetricNames.ReconcileErrors,
          help: 'Total number of reconciliation errors per controller',
          labelNames: ['controller'],
          registers: [registry],
        }),
    ),
    reconcileTime: reuse(
      registry,
      RuntimeMetricNames.ReconcileTime,
      () =>
        new Histogram({
          name: RuntimeMetricNames.ReconcileTime,
          help: 'Length of time per reconciliation per controller',
          labelNames: ['controller'],
          buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
          registers: [registry],
        }),
    ),
    activeWorkers: reuse(
      registry,
      RuntimeMetricNames.ActiveWorkers,
      () =>
        new Gauge({
          name: RuntimeMetricNames.ActiveWorkers,
          help: 'Number of currently used workers per controller',
          labelNames: ['controller'],
          registers: [registry],
        }),
    ),
    maxConcurrentReconciles: reuse(
      registry,
      RuntimeMetricNames.MaxConcurrentReconciles,
      () =>
        new Gauge({
          name: RuntimeMetricNames.MaxConcurrentReconciles,
          help: 'Maximum number of concurrent reconciles per controller',
          labelNames: ['controller'],
          registers: [registry],
        }),
    ),
    depth: reuse(
      registry,
      RuntimeMetricNames.WorkQueueDepth,
      () =>
        new Gauge({
          name: RuntimeMetricNames.WorkQueueDepth,
          help: 'Current depth of workqueue',
          labelNames: ['name', 'controller'],
          registers: [registry],
        }),
    ),
    adds: reuse(
      registry,
      RuntimeMetricNames.WorkQueueAdds,
      () =>
        new Counter({
          name: RuntimeMetricNames.WorkQueueAdds,
          help: 'Total number of adds handled by workqueue',
          labelNames: ['name', 'controller'],
          registers: [registry],
        }),
    ),
    retries: reuse(
      registry,
      RuntimeMetricNames.WorkQueueRetries,
      () =>
        new Counter({
          name: RuntimeMetricNames.WorkQueueRetries,
          help: 'Total number of retries handled by workqueue',
          labelNames: ['name', 'controller'],
          registers: [registry],
        }),
    ),
  };
}

/** The metric named `name` in the registry, or a new one from `create`. */
export function reuse<M extends Metric>(registry: Registry, name: string, create: () => M): M {
  return (registry.getSingleMetric(name) as M | undefined) ?? create();
}
