import type { InterruptionKind } from '@nodewright/core/cloudprovider';

/** How long EC2 gives a spot instance after the interruption warning. */
export const SpotInterruptionWarningMs = 2 * 60_000;

/** An EventBridge event read from the queue, before instance ids are resolved to providerIDs. */
export interface ParsedInterruption {
  readonly kind: InterruptionKind;
  readonly instanceIds: readonly string[];
  /** When the instance is taken (ms since epoch), when the event says. */
  readonly deadline?: number;
  readonly message: string;
  /** The event's time (ms since epoch), when it says: how long the message waited is measured from it. */
  readonly sentAt?: number;
}

/** Why a message is not an interruption this source acts on; it is logged and deleted. */
export interface IgnoredMessage {
  readonly ignored: string;
  /**
   * Set when the body is an EventBridge event, just not an interruption (Karpenter's no-op
   * message, counted as received); absent for a body that is no event at all.
   */
  readonly event?: { readonly sentAt?: number };
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function time(v: unknown): number | undefined {
  const s = str(v);
  if (s === undefined) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

const InstanceId = /^i-[0-9a-zA-Z]+$/;

/**
 * Reads one SQS message body as the EventBridge events the interruption queue is fed with:
 * `EC2 Spot Instance Interruption Warning` (deadline = event time + 2 min),
 * `EC2 Instance Rebalance Recommendation`, `AWS Health Event` of service EC2 and category
 * scheduledChange (every affected instance; deadline = the event's start time),
 * `EC2 Instance State-change Notification` (stopping/stopped -> InstanceStopping,
 * shutting-down/terminated -> InstanceTerminated; other states ignored). Anything else,
 * including malformed JSON, is an IgnoredMessage saying why. Never throws.
 */
export function parseInterruptionMessage(body: string | undefined): ParsedInterruption | IgnoredMessage {
  if (body === undefined || body.trim() === '') return { ignored: 'empty message body' };
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch (err) {
    return { ignored: `message body is not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!isObject(event)) return { ignored: 'message body is not a JSON object' };
  const source = str(event.source);
  const detailType = str(event['detail-type']);
  const detail = event.detail;
  if (source === undefined || detailType === undefined || !isObject(detail)) {
    return { ignored: 'not an EventBridge event (source, detail-type or detail missing)' };
  }
  const at = time(event.time);
  const sent = at === undefined ? {} : { sentAt: at };
  const result = classifyEvent(source, detailType, detail, at);
  return 'ignored' in result ? { ...result, event: sent } : { ...result, ...sent };
}

/** What an EventBridge event with this source, detail-type and detail is; `at` is its time. Pure. */
function classifyEvent(
  source: string,
  detailType: string,
  detail: Json,
  at: number | undefined,
): ParsedInterruption | IgnoredMessage {
  const instanceId = str(detail['instance-id']);
  const single = (
    kind: InterruptionKind,
    message: string,
    deadline?: number,
  ): ParsedInterruption | IgnoredMessage => {
    if (instanceId === undefined || !InstanceId.test(instanceId)) {
      return { ignored: `${detailType} without a valid detail.instance-id` };
    }
    return { kind, instanceIds: [instanceId], ...(deadline !== undefined ? { deadline } : {}), message };
  };
  if (source === 'aws.ec2' && detailType === 'EC2 Spot Instance Interruption Warning') {
    return single(
      'SpotInterruption',
      `spot interruption warning (${str(detail['instance-action']) ?? 'terminate'})`,
      at === undefined ? undefined : at + SpotInterruptionWarningMs,
    );
  }
  if (source === 'aws.ec2' && detailType === 'EC2 Instance Rebalance Recommendation') {
    return single('RebalanceRecommendation', 'rebalance recommendation: elevated risk of spot interruption');
  }
  if (source === 'aws.ec2' && detailType === 'EC2 Instance State-change Notification') {
    const state = str(detail.state);
    if (state === 'stopping' || state === 'stopped')
      return single('InstanceStopping', `instance is ${state}`);
    if (state === 'shutting-down' || state === 'terminated')
      return single('InstanceTerminated', `instance is ${state}`);
    return { ignored: `instance state-change to ${state ?? 'no state'} is not an interruption` };
  }
  if (source === 'aws.health' && detailType === 'AWS Health Event') {
    if (str(detail.service) !== 'EC2' || str(detail.eventTypeCategory) !== 'scheduledChange') {
      return {
        ignored: `AWS Health event of service ${str(detail.service) ?? '?'} category ${str(detail.eventTypeCategory) ?? '?'} is not an EC2 scheduled change`,
      };
    }
    const entities = Array.isArray(detail.affectedEntities) ? detail.affectedEntities : [];
    const ids = entities
      .map((e) => (isObject(e) ? str(e.entityValue) : undefined))
      .filter((id): id is string => id !== undefined && InstanceId.test(id));
    if (ids.length === 0) return { ignored: 'AWS Health scheduled change without affected instances' };
    const deadline = time(detail.startTime);
    return {
      kind: 'ScheduledMaintenance',
      instanceIds: [...new Set(ids)],
      ...(deadline !== undefined ? { deadline } : {}),
      message: `scheduled maintenance ${str(detail.eventTypeCode) ?? ''}`.trim(),
    };
  }
  return { ignored: `event ${source} "${detailType}" is not an interruption` };
}
