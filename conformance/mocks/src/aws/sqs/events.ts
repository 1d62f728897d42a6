import { createHash } from 'node:crypto';

/** An EventBridge event as it lands in an SQS queue (the message body is its JSON). */
export interface EventBridgeEvent {
  readonly version: '0';
  readonly id: string;
  readonly 'detail-type': string;
  readonly source: string;
  readonly account: string;
  readonly time: string;
  readonly region: string;
  readonly resources: readonly string[];
  readonly detail: Readonly<Record<string, unknown>>;
}

/** Where and when an event happened. */
export interface EventOrigin {
  readonly region: string;
  readonly account: string;
  /** ms since epoch. */
  readonly time: number;
}

function event(
  origin: EventOrigin,
  detailType: string,
  source: string,
  resources: readonly string[],
  detail: Record<string, unknown>,
): EventBridgeEvent {
  const time = new Date(origin.time).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const hex = createHash('sha256')
    .update(`${detailType}/${time}/${JSON.stringify(detail)}`)
    .digest('hex');
  return {
    version: '0',
    id: `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`,
    'detail-type': detailType,
    source,
    account: origin.account,
    time,
    region: origin.region,
    resources,
    detail,
  };
}

const instanceArn = (o: EventOrigin, id: string) => `arn:aws:ec2:${o.region}:${o.account}:instance/${id}`;

/** "EC2 Spot Instance Interruption Warning": the instance is reclaimed two minutes after `time`. */
export function spotInterruptionWarning(
  origin: EventOrigin,
  instanceId: string,
  action: 'terminate' | 'stop' | 'hibernate' = 'terminate',
): EventBridgeEvent {
  return event(
    origin,
    'EC2 Spot Instance Interruption Warning',
    'aws.ec2',
    [instanceArn(origin, instanceId)],
    {
      'instance-id': instanceId,
      'instance-action': action,
    },
  );
}

/** "EC2 Instance Rebalance Recommendation": elevated interruption risk, no deadline. */
export function rebalanceRecommendation(origin: EventOrigin, instanceId: string): EventBridgeEvent {
  return event(
    origin,
    'EC2 Instance Rebalance Recommendation',
    'aws.ec2',
    [instanceArn(origin, instanceId)],
    {
      'instance-id': instanceId,
    },
  );
}

/** "EC2 Instance State-change Notification". */
export function instanceStateChange(
  origin: EventOrigin,
  instanceId: string,
  state: 'pending' | 'running' | 'stopping' | 'stopped' | 'shutting-down' | 'terminated',
): EventBridgeEvent {
  return event(
    origin,
    'EC2 Instance State-change Notification',
    'aws.ec2',
    [instanceArn(origin, instanceId)],
    {
      'instance-id': instanceId,
      state,
    },
  );
}

/**
 * "AWS Health Event" of category scheduledChange for EC2 (instance retirement by default),
 * affecting the given instances between `startTime` and `endTime` (ms since epoch).
 */
export function scheduledChange(
  origin: EventOrigin,
  instanceIds: readonly string[],
  window: { readonly startTime: number; readonly endTime: number },
  eventTypeCode = 'AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED',
): EventBridgeEvent {
  const suffix = createHash('sha256').update(instanceIds.join(',')).digest('hex').slice(0, 12);
  return event(origin, 'AWS Health Event', 'aws.health', instanceIds, {
    eventArn: `arn:aws:health:${origin.region}::event/EC2/${eventTypeCode}/${eventTypeCode}_${suffix}`,
    service: 'EC2',
    eventTypeCode,
    eventTypeCategory: 'scheduledChange',
    // AWS Health writes these in RFC 1123 form, unlike the envelope's ISO time.
    startTime: new Date(window.startTime).toUTCString(),
    endTime: new Date(window.endTime).toUTCString(),
    eventDescription: [
      {
        language: 'en_US',
        latestDescription:
          'EC2 has detected degradation of the underlying hardware hosting your instance(s). The instance(s) will be retired.',
      },
    ],
    affectedEntities: instanceIds.map((entityValue) => ({ entityValue })),
  });
}
