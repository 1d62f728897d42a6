import { describe, expect, it } from 'vitest';
import { events } from '../provider/testing/events.js';
import { parseInterruptionMessage } from './messages.js';

describe('parseInterruptionMessage', () => {
  it('reads a spot interruption warning with a deadline two minutes after the event', () => {
    expect(parseInterruptionMessage(JSON.stringify(events.spot))).toEqual({
      kind: 'SpotInterruption',
      instanceIds: ['i-0b662ef9931388ba0'],
      deadline: Date.parse('2026-06-01T12:02:00Z'),
      message: 'spot interruption warning (terminate)',
      sentAt: Date.parse('2026-06-01T12:00:00Z'),
    });
  });

  it('reads a rebalance recommendation', () => {
    expect(parseInterruptionMessage(JSON.stringify(events.rebalance))).toMatchObject({
      kind: 'RebalanceRecommendation',
      instanceIds: ['i-0b662ef9931388ba0'],
    });
  });

  it('reads an AWS Health scheduled change for every affected instance, due at its start time', () => {
    expect(parseInterruptionMessage(JSON.stringify(events.health))).toEqual({
      kind: 'ScheduledMaintenance',
      instanceIds: ['i-0b662ef9931388ba0', 'i-05ad4d7e4f3b6ba0c'],
      deadline: Date.parse('2026-06-06T15:10:09Z'),
      message: 'scheduled maintenance AWS_EC2_INSTANCE_RETIREMENT_SCHEDULED',
      sentAt: Date.parse('2026-06-01T12:00:00Z'),
    });
  });

  it.each([
    ['stopping', 'InstanceStopping'],
    ['stopped', 'InstanceStopping'],
    ['shutting-down', 'InstanceTerminated'],
    ['terminated', 'InstanceTerminated'],
  ])('maps state-change %s to %s', (state, kind) => {
    expect(parseInterruptionMessage(JSON.stringify(events.stateChange(state)))).toMatchObject({ kind });
  });

  it.each([
    ['not JSON', '{"detail-type": '],
    ['empty', ''],
    ['a JSON array', '[1,2]'],
    ['an S3 test event', '{"Service":"Amazon S3","Event":"s3:TestEvent"}'],
    ['a running state change', JSON.stringify(events.stateChange('running'))],
    [
      'a Health event of another service',
      JSON.stringify({ ...events.health, detail: { ...events.health.detail, service: 'RDS' } }),
    ],
    ['a spot warning without an instance id', JSON.stringify({ ...events.spot, detail: {} })],
    ['an unknown detail-type', JSON.stringify({ ...events.spot, 'detail-type': 'EC2 Fleet Error' })],
  ])('ignores %s, saying why', (_what, body) => {
    const out = parseInterruptionMessage(body);
    expect(out).toHaveProperty('ignored');
    expect((out as { ignored: string }).ignored.length).toBeGreaterThan(5);
  });

  it('marks an ignored message that is still an EventBridge event (a no-op message), with its time', () => {
    expect(parseInterruptionMessage(JSON.stringify(events.stateChange('running')))).toMatchObject({
      event: { sentAt: Date.parse('2026-06-01T12:00:00Z') },
    });
    expect(parseInterruptionMessage('[1,2]')).not.toHaveProperty('event');
  });
});
