import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { DisruptionReason } from '../../apis/v1/budget.js';
import { DurationBuckets } from '../../metrics/gauges.js';
import { MetricNames } from '../../metrics/names.js';
import { reuse } from '../../operator/runtime/metrics.js';
import type { DisruptionMethodName } from '../decide/methods/method.js';

/** The disruption controller's own counters, with Karpenter's names and labels. */
export interface DisruptionMetrics {
  /** `{decision: delete|replace, reason: empty|drifted|underutilized, consolidation_type: empty|single|multi|''}`. */
  readonly decisions: Counter<'decision' | 'reason' | 'consolidation_type'>;
  /** As `decisions`, once per NodePool of the command's candidates. */
  readonly decisionsByNodePool: Counter<'nodepool' | 'decision' | 'reason' | 'consolidation_type'>;
  /** `{reason: empty|drifted|underutilized}`: candidates each reason's methods considered in the last pass. */
  readonly eligibleNodes: Gauge<'reason'>;
  /** `{consolidation_type: multi|single}`: consolidation searches stopped at their time budget. */
  readonly consolidationTimeouts: Counter<'consolidation_type'>;
  /** `{consolidation_type}`: candidates of commands abandoned because re-validation failed. */
  readonly failedValidations: Counter<'consolidation_type'>;
  /** `{reason, consolidation_type}`: how long each method of a pass took to decide, seconds. */
  readonly evaluationDuration: Histogram<'reason' | 'consolidation_type'>;
  /**
   * `{decision, reason, consolidation_type}`: replacements of a command that never initialized
   * (deleted first, or past the replacement timeout), so the command was abandoned.
   */
  readonly queueFailures: Counter<'decision' | 'reason' | 'consolidation_type'>;
  /**
   * `{decision: approved|rejected, nodepool, policy}`: consolidation moves scored, once per
   * NodePool of a move (single-node: every command found; multi-node: the one chosen, or the
   * last a Balanced pool turned away).
   */
  readonly consolidationMoves: Counter<'decision' | 'nodepool' | 'policy'>;
  /** As `consolidationMoves`, for Balanced pools only: the move's score there; `decision` is that pool's. */
  readonly consolidationScore: Histogram<'decision' | 'nodepool' | 'policy'>;
}

export function disruptionMetrics(registry: Registry): DisruptionMetrics {
  const name = MetricNames.VoluntaryDisruptionDecisions;
  const eligible = MetricNames.VoluntaryDisruptionEligibleNodes;
  const timeouts = MetricNames.VoluntaryDisruptionConsolidationTimeouts;
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
    decisionsByNodePool: reuse(
      registry,
      MetricNames.VoluntaryDisruptionDecisionsByNodePool,
      () =>
        new Counter({
          name: MetricNames.VoluntaryDisruptionDecisionsByNodePool,
          help: 'Number of disruption decisions performed by nodepool. Labeled by nodepool name, disruption decision, reason, and consolidation type.',
          labelNames: ['nodepool', 'decision', 'reason', 'consolidation_type'],
          registers: [registry],
        }),
    ),
    eligibleNodes: reuse(
      registry,
      eligible,
      () =>
        new Gauge({
          name: eligible,
          help: 'Number of nodes eligible for disruption by Karpenter. Labeled by disruption reason.',
          labelNames: ['reason'],
          registers: [registry],
        }),
    ),
    consolidationTimeouts: reuse(
      registry,
      timeouts,
      () =>
        new Counter({
          name: timeouts,
          help: 'Number of times the Consolidation algorithm has reached a timeout. Labeled by consolidation type.',
          labelNames: ['consolidation_type'],
          registers: [registry],
        }),
    ),
    failedValidations: reuse(
      registry,
      MetricNames.VoluntaryDisruptionFailedValidations,
      () =>
        new Counter({
          name: MetricNames.VoluntaryDisruptionFailedValidations,
          help: 'Number of candidates that were selected for disruption but failed validation. Labeled by consolidation type.',
          labelNames: ['consolidation_type'],
          registers: [registry],
        }),
    ),
    evaluationDuration: reuse(
      registry,
      MetricNames.VoluntaryDisruptionDecisionEvaluationDuration,
      () =>
        new Histogram({
          name: MetricNames.VoluntaryDisruptionDecisionEvaluationDuration,
          help: 'Duration of the disruption decision evaluation process in seconds. Labeled by method and consolidation type.',
          labelNames: ['reason', 'consolidation_type'],
          buckets: DurationBuckets,
          registers: [registry],
        }),
    ),
    queueFailures: reuse(
      registry,
      MetricNames.VoluntaryDisruptionQueueFailures,
      () =>
        new Counter({
          name: MetricNames.VoluntaryDisruptionQueueFailures,
          help: 'The number of times that an enqueued disruption decision failed. Labeled by disruption method.',
          labelNames: ['decision', 'reason', 'consolidation_type'],
          registers: [registry],
        }),
    ),
    consolidationMoves: reuse(
      registry,
      MetricNames.ConsolidationMoves,
      () =>
        new Counter({
          name: MetricNames.ConsolidationMoves,
          help: 'Number of balanced consolidation moves. Labeled by decision, NodePool, and policy.',
          labelNames: ['decision', 'nodepool', 'policy'],
          registers: [registry],
        }),
    ),
    consolidationScore: reuse(
      registry,
      MetricNames.ConsolidationScore,
      () =>
        new Histogram({
          name: MetricNames.ConsolidationScore,
          help: 'Score of balanced consolidation moves. Labeled by decision, NodePool, and policy.',
          labelNames: ['decision', 'nodepool', 'policy'],
          buckets: [0.1, 0.25, 0.33, 0.5, 1, 2, 5, 10],
          registers: [registry],
        }),
    ),
  };
}

const ConsolidationTypes: Record<DisruptionMethodName, string> = {
  emptiness: 'empty',
  drift: '',
  'multi-node-consolidation': 'multi',
  'single-node-consolidation': 'single',
};

/** A method as the `consolidation_type` label spells it (Karpenter's: empty, multi, single; drift none). */
export const consolidationType = (method: DisruptionMethodName): string => ConsolidationTypes[method];

/** A disruption reason as Karpenter's metric labels spell it (`Underutilized` -> `underutilized`). */
export const reasonLabel = (r: DisruptionReason): string => r.toLowerCase();
