import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { reuse } from '../../operator/runtime/metrics.js';

/** operatorpkg's status-condition metric names (namespace `operator`, not `karpenter`). */
export const StatusConditionMetricNames = {
  Count: 'operator_status_condition_count',
  TransitionsTotal: 'operator_status_condition_transitions_total',
  TransitionSeconds: 'operator_status_condition_transition_seconds',
} as const;

type CountLabel = 'namespace' | 'name' | 'group' | 'kind' | 'type' | 'status' | 'reason';

/** The status-condition families, with operatorpkg's labels and buckets. */
export interface StatusConditionMetrics {
  /** 1 per object and condition, labelled with its type, status and reason. */
  readonly count: Gauge<CountLabel>;
  /** Transitions observed, by kind and the condition's new type, status and reason. */
  readonly transitionsTotal: Counter<'group' | 'kind' | 'type' | 'status' | 'reason'>;
  /** Seconds a condition held a status before it changed, by kind, type and that status. */
  readonly transitionSeconds: Histogram<'group' | 'kind' | 'type' | 'status'>;
}

/** Prometheus' default buckets, which operatorpkg's generic transition histogram keeps. */
const DefaultBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The status-condition families in `registry` (reusing any already registered there). */
export function statusConditionMetrics(registry: Registry): StatusConditionMetrics {
  return {
    count: reuse(
      registry,
      StatusConditionMetricNames.Count,
      () =>
        new Gauge<CountLabel>({
          name: StatusConditionMetricNames.Count,
          help: 'The number of an condition for a given object, type and status. e.g. Alarm := Available=False > 0',
          labelNames: ['namespace', 'name', 'group', 'kind', 'type', 'status', 'reason'],
          registers: [registry],
        }),
    ),
    transitionsTotal: reuse(
      registry,
      StatusConditionMetricNames.TransitionsTotal,
      () =>
        new Counter({
          name: StatusConditionMetricNames.TransitionsTotal,
          help: 'The count of transitions of a given object, type and status.',
          labelNames: ['group', 'kind', 'type', 'status', 'reason'],
          registers: [registry],
        }),
    ),
    transitionSeconds: reuse(
      registry,
      StatusConditionMetricNames.TransitionSeconds,
      () =>
        new Histogram({
          name: StatusConditionMetricNames.TransitionSeconds,
          help: 'The amount of time a condition was in a given state before transitioning. e.g. Alarm := P99(Updated=False) > 5 minutes',
          labelNames: ['group', 'kind', 'type', 'status'],
          buckets: DefaultBuckets,
          registers: [registry],
        }),
    ),
  };
}
