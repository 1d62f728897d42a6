import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { reuse } from '../../operator/runtime/metrics.js';

/** operatorpkg's status-condition metric names (namespace `operator`, not `karpenter`). */
export const StatusConditionMetricNames = {
  Count: 'operator_status_condition_count',
  TransitionsTotal: 'operator_status_condition_transitions_total',
  TransitionSeconds: 'operator_status_condition_transition_seconds',
} as const;

/**
 * One set of status-condition families, with operatorpkg's labels and buckets: the generic set
 * (`operator_status_condition_*`, labelled by `group` and `kind`) or one kind's own
 * (`operator_<kind>_status_condition_*`, labelled by the kind's extra object labels).
 */
export interface StatusConditionMetrics {
  /** 1 per object and condition: `namespace`, `name`, `type`, `status`, `reason`, plus the set's labels. */
  readonly count: Gauge<string>;
  /** Transitions observed: the condition's new `type`, `status`, `reason`, plus the set's labels. */
  readonly transitionsTotal: Counter<string>;
  /** Seconds a condition held a status before it changed: `type`, that `status`, plus the set's labels. */
  readonly transitionSeconds: Histogram<string>;
}

/** Prometheus' default buckets, which operatorpkg's histograms keep unless told otherwise. */
export const DefaultBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Karpenter's buckets for the NodePool and NodeClaim transition histograms: 0.5 s doubling to 8192 s. */
export const TransitionBuckets = Array.from({ length: 15 }, (_, i) => 0.5 * 2 ** i);

/** The families named `<prefix>_count` etc. in `registry` (reusing any already registered there). */
function conditionFamilies(
  registry: Registry,
  prefix: string,
  what: string,
  labels: readonly string[],
  buckets: readonly number[],
): StatusConditionMetrics {
  const name = (suffix: string) => `${prefix}_${suffix}`;
  return {
    count: reuse(
      registry,
      name('count'),
      () =>
        new Gauge({
          name: name('count'),
          help: `The number of a condition for ${what}, type and status. e.g. Alarm := Available=False > 0`,
          labelNames: ['namespace', 'name', 'type', 'status', 'reason', ...labels],
          registers: [registry],
        }),
    ),
    transitionsTotal: reuse(
      registry,
      name('transitions_total'),
      () =>
        new Counter({
          name: name('transitions_total'),
          help: `The count of transitions of ${what}, type and status.`,
          labelNames: ['type', 'status', 'reason', ...labels],
          registers: [registry],
        }),
    ),
    transitionSeconds: reuse(
      registry,
      name('transition_seconds'),
      () =>
        new Histogram({
          name: name('transition_seconds'),
          help: 'The amount of time a condition was in a given state before transitioning. e.g. Alarm := P99(Updated=False) > 5 minutes',
          labelNames: ['type', 'status', ...labels],
          buckets: [...buckets],
          registers: [registry],
        }),
    ),
  };
}

/** The generic families (`group`, `kind` labels; Prometheus' default buckets) in `registry`. */
export function statusConditionMetrics(registry: Registry): StatusConditionMetrics {
  return conditionFamilies(
    registry,
    'operator_status_condition',
    'a given object',
    ['group', 'kind'],
    DefaultBuckets,
  );
}

/**
 * `kind`'s own families, operatorpkg's current ones (kind lower-cased: `operator_nodepool_...`),
 * labelled by `extraLabels` (Prometheus label names of object labels, e.g. `karpenter_sh_nodepool`
 * on NodeClaims) instead of `group` and `kind`.
 */
export function kindStatusConditionMetrics(
  registry: Registry,
  kind: string,
  extraLabels: readonly string[],
  buckets: readonly number[],
): StatusConditionMetrics {
  const lower = kind.toLowerCase();
  return conditionFamilies(
    registry,
    `operator_${lower}_status_condition`,
    `a ${lower}`,
    extraLabels,
    buckets,
  );
}

/** An object label as a Prometheus label name, as operatorpkg makes it (`/`, `.`, `-` become `_`). */
export function prometheusLabelOf(objectLabel: string): string {
  return objectLabel.replaceAll(/[/.-]/g, '_');
}
