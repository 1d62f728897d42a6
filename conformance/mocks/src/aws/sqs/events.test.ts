import { describe, expect, it } from 'vitest';
import {
  instanceStateChange,
  rebalanceRecommendation,
  scheduledChange,
  spotInterruptionWarning,
} from './events.js';

const origin = { region: 'us-east-1', account: '123456789012', time: Date.parse('2026-12-01T10:00:00.123Z') };

describe('EventBridge builders', () => {
  it('build the real envelope and details', () => {
    const spot = spotInterruptionWarning(origin, 'i-0abc');
    expect(spot).toMatchObject({
      version: '0',
      'detail-type': 'EC2 Spot Instance Interruption Warning',
      source: 'aws.ec2',
      account: '123456789012',
      time: '2026-12-01T10:00:00Z',
      region: 'us-east-1',
      resources: ['arn:aws:ec2:us-east-1:123456789012:instance/i-0abc'],
      detail: { 'instance-id': 'i-0abc', 'instance-action': 'terminate' },
    });
    expect(spot.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(rebalanceRecommendation(origin, 'i-1').detail).toEqual({ 'instance-id': 'i-1' });
    expect(instanceStateChange(origin, 'i-1', 'stopping').detail).toEqual({
      'instance-id': 'i-1',
      state: 'stopping',
    });
  });

  it('builds AWS Health scheduled changes with affected entities', () => {
    const e = scheduledChange(origin, ['i-1', 'i-2'], {
      startTime: origin.time + 86_400_000,
      endTime: origin.time + 2 * 86_400_000,
    });
    expect(e.source).toBe('aws.health');
    expect(e['detail-type']).toBe('AWS Health Event');
    expect(e.detail).toMatchObject({
      service: 'EC2',
      eventTypeCategory: 'scheduledChange',
      startTime: 'Wed, 02 Dec 2026 10:00:00 GMT',
      affectedEntities: [{ entityValue: 'i-1' }, { entityValue: 'i-2' }],
    });
  });
});
