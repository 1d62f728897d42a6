import { Counter, type Registry } from 'prom-client';
import { MetricNames } from '../../metrics/names.js';
import { reuse } from '../../operator/runtime/metrics.js';

/** The disruption controller's own counters, with Karpenter's names and labels. */
export interface DisruptionMetrics {
  /** `{decision: delete|replace, reason: empty|drifted|underutilized, consolidation_type: empty|single|multi|''}`. */
  readonly decisions: Counter<'decision' | 'reason' | 'consolidation_type'>;
}

export function disruptionMetrics(registry: Registry): DisruptionMetrics {
  const name = MetricNames.VoluntaryDisruptionDecisions;
  return {
    decisions: reuse(
      registry,
      name,
      () =>
        new Counter({
          name,
          help: 'Number of disruption decisions performed.',
          labelNames: ['decision', 'reason', 'consolidation_type'],
          registers: [registry],
        }),
    ),
  };
}
