import { FakeClock } from '@nodewright/core/clock';
import { interruptionMessageMetrics } from '@nodewright/core/cloudprovider';
import { ControllerEnv } from '@nodewright/core/testing';
import { describe, expect, it } from 'vitest';
import { events } from '../provider/testing/events.js';
import { fakeEc2, fakeSqs } from '../provider/testing/fake-ec2.js';
import { recordingLogger } from '../provider/testing/fixtures.js';
import type { SqsApi } from '../sdk/index.js';
import { type InterruptionQueueApi, SqsInterruptionSource } from './sqs-source.js';

const QueueUrl = 'https://sqs.us-west-2.amazonaws.com/123456789012/interruptions';

function world(bodies: (string | undefined)[]) {
  const sqs = fakeSqs();
  const ec2 = fakeEc2();
  sqs
    .on('getQueueUrl', () => ({ QueueUrl }))
    .on('receiveMessage', () => ({
      Messages: bodies.map((Body, i) => ({ MessageId: `m-${i}`, ReceiptHandle: `rh-${i}`, Body })),
    }));
  ec2.on('describeInstances', (input) => ({
    Reservations: [
      {
        Instances: (input.Filters?.[0]?.Values ?? [])
          .filter((id) => id !== 'i-05ad4d7e4f3b6ba0c')
          .map((id) => ({
            InstanceId: id,
            InstanceType: 'm5.large' as never,
            Placement: { AvailabilityZone: 'us-west-2a' },
          })),
      },
    ],
  }));
  const logger = recordingLogger();
  // The test kit's registry: a fresh one per world (this package does not import prom-client).
  const { registry } = new ControllerEnv();
  // Every event in events.ts happened at 12:00; the messages are read 45 s later.
  const clock = new FakeClock(Date.parse('2026-06-01T12:00:45Z'));
  const source = new SqsInterruptionSource({
    sqs: sqs.api as SqsApi as InterruptionQueueApi,
    ec2: ec2.api,
    queueName: 'interruptions',
    logger,
    metrics: interruptionMessageMetrics(registry),
    clock,
  });
  return { sqs, ec2, logger, source, registry, clock };
}

describe('SqsInterruptionSource', () => {
  it('long-polls the queue named by the setting', async () => {
    const w = world([]);
    expect(await w.source.receive()).toEqual([]);
    await w.source.receive();
    expect(w.sqs.inputs('getQueueUrl')).toEqual([{ QueueName: 'interruptions' }]);
    expect(w.sqs.inputs('receiveMessage')[0]).toEqual({
      QueueUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 20,
    });
  });

  it('turns a spot warning into a notice with providerID, offering and deadline; acknowledging deletes it', async () => {
    const w = world([JSON.stringify(events.spot)]);
    const [notice, ...rest] = await w.source.receive();
    expect(rest).toEqual([]);
    expect(notice).toEqual({
      id: 'rh-0',
      kind: 'SpotInterruption',
      providerID: 'aws:///us-west-2a/i-0b662ef9931388ba0',
      deadline: Date.parse('2026-06-01T12:02:00Z'),
      offering: { capacityType: 'spot', instanceType: 'm5.large', zone: 'us-west-2a' },
      message: 'spot interruption warning (terminate) for instance i-0b662ef9931388ba0',
    });
    expect(w.sqs.inputs('deleteMessage')).toEqual([]);
    await w.source.acknowledge(notice!);
    expect(w.sqs.inputs('deleteMessage')).toEqual([{ QueueUrl, ReceiptHandle: 'rh-0' }]);
  });

  it('deletes malformed and unknown messages at once and logs why, without throwing', async () => {
    const w = world([
      'not json',
      JSON.stringify(events.stateChange('running')),
      JSON.stringify(events.rebalance),
    ]);
    const notices = await w.source.receive();
    expect(notices.map((n) => n.kind)).toEqual(['RebalanceRecommendation']);
    expect(w.sqs.inputs('deleteMessage').map((d) => d.ReceiptHandle)).toEqual(['rh-0', 'rh-1']);
    expect(w.logger.lines.filter((l) => l.level === 'warn')).toHaveLength(2);
  });

  it('deletes a Health event once the notice of every known instance is acknowledged; unknown instances are skipped', async () => {
    const w = world([JSON.stringify(events.health)]);
    const notices = await w.source.receive();
    // i-05ad4d7e4f3b6ba0c is unknown to EC2: no providerID can be made for it.
    expect(notices.map((n) => n.providerID)).toEqual(['aws:///us-west-2a/i-0b662ef9931388ba0']);
    expect(notices[0]?.kind).toBe('ScheduledMaintenance');
    await w.source.acknowledge(notices[0]!);
    expect(w.sqs.inputs('deleteMessage')).toEqual([{ QueueUrl, ReceiptHandle: 'rh-0' }]);
  });

  it('returns nothing once the signal aborts during the long poll', async () => {
    const sqs = fakeSqs();
    sqs.on('getQueueUrl', () => ({ QueueUrl })).on('receiveMessage', () => new Promise(() => {}));
    const source = new SqsInterruptionSource({
      sqs: sqs.api as SqsApi as InterruptionQueueApi,
      ec2: fakeEc2().api,
      queueName: 'interruptions',
      logger: recordingLogger(),
      metrics: interruptionMessageMetrics(new ControllerEnv().registry),
      clock: new FakeClock(0),
    });
    const controller = new AbortController();
    const pending = source.receive(controller.signal);
    await new Promise((r) => setImmediate(r));
    controller.abort();
    expect(await pending).toEqual([]);
  });

  it("counts Karpenter's interruption metrics: received by type, deleted, and time on the queue until handled", async () => {
    const w = world([
      'not json',
      JSON.stringify(events.stateChange('running')),
      JSON.stringify(events.spot),
      JSON.stringify(events.rebalance),
    ]);
    const notices = await w.source.receive();
    const text = async () => w.registry.metrics();
    // The malformed body is no event: deleted, but neither received nor timed.
    expect(await text()).toContain('karpenter_interruption_received_messages_total{message_type="no_op"} 1');
    expect(await text()).toContain(
      'karpenter_interruption_received_messages_total{message_type="spot_interrupted"} 1',
    );
    expect(await text()).toContain(
      'karpenter_interruption_received_messages_total{message_type="rebalance_recommendation"} 1',
    );
    expect(await text()).toContain('karpenter_interruption_deleted_messages_total 2');
    expect(await text()).toContain('karpenter_interruption_message_queue_duration_seconds_count 1');
    expect(await text()).toContain('karpenter_interruption_message_queue_duration_seconds_sum 45');

    // The spot notice is handled 15 s later: its message waited 60 s from the event.
    w.clock.step(15_000);
    await w.source.acknowledge(notices.find((n) => n.kind === 'SpotInterruption')!);
    expect(await text()).toContain('karpenter_interruption_deleted_messages_total 3');
    expect(await text()).toContain('karpenter_interruption_message_queue_duration_seconds_count 2');
    expect(await text()).toContain('karpenter_interruption_message_queue_duration_seconds_sum 105');
    expect(await text()).toContain('karpenter_interruption_message_queue_duration_seconds_bucket{le="60"} 2');
  });
});
