import { Counter, Histogram, type Registry } from 'prom-client';
import { DurationBuckets } from '../metrics/gauges.js';
import { MetricNames } from '../metrics/names.js';
import { reuse } from '../operator/runtime/metrics.js';
import type { InterruptionKind } from './cloud-provider.js';

/**
 * Karpenter's interruption-queue metrics, for a provider whose InterruptionSource reads a
 * message queue (AWS: SQS fed by EventBridge). Counted per queue message, not per notice: one
 * message may name many instances, and messages that are no interruption never become notices.
 */
export interface InterruptionMessageMetrics {
  /** `karpenter_interruption_received_messages_total{message_type}`: every message read that parses as an event. */
  readonly received: Counter<'message_type'>;
  /** `karpenter_interruption_deleted_messages_total`: every message deleted from the queue. */
  readonly deleted: Counter;
  /** `karpenter_interruption_message_queue_duration_seconds`: from the event's time until its message was handled and deleted. */
  readonly queueDuration: Histogram;
}

/** The `message_type` of a message that parses as an event but is no interruption (Karpenter's no-op message). */
export const NoOpMessageType = 'no_op';

const MessageTypes: Readonly<Record<InterruptionKind, string>> = {
  SpotInterruption: 'spot_interrupted',
  ScheduledMaintenance: 'scheduled_change',
  RebalanceRecommendation: 'rebalance_recommendation',
  InstanceStopping: 'instance_stopped',
  InstanceTerminated: 'instance_terminated',
};

/** Karpenter's `message_type` label for a message of this kind. Pure. */
export function interruptionMessageType(kind: InterruptionKind): string {
  return MessageTypes[kind];
}

/** The interruption-queue families in `registry` (reusing any already registered there). */
export function interruptionMessageMetrics(registry: Registry): InterruptionMessageMetrics {
  return {
    received: reuse(
      registry,
      MetricNames.InterruptionReceivedMessages,
      () =>
        new Counter({
          name: MetricNames.InterruptionReceivedMessages,
          help: 'Count of messages received from the SQS queue. Broken down by message type and whether the message was actionable.',
          labelNames: ['message_type'],
          registers: [registry],
        }),
    ),
    deleted: reuse(
      registry,
      MetricNames.InterruptionDeletedMessages,
      () =>
        new Counter({
          name: MetricNames.InterruptionDeletedMessages,
          help: 'Count of messages deleted from the SQS queue.',
          registers: [registry],
        }),
    ),
    queueDuration: reuse(
      registry,
      MetricNames.InterruptionMessageQueueDuration,
      () =>
        new Histogram({
          name: MetricNames.InterruptionMessageQueueDuration,
          help: 'Amount of time an interruption message is on the queue before it is processed by karpenter.',
          buckets: DurationBuckets,
          registers: [registry],
        }),
    ),
  };
}
