import { FakeClock } from '@nodewright/core/clock';
import { describe, expect, it } from 'vitest';
import { AwsFaults } from './faults.js';

describe('AwsFaults', () => {
  it('fails the next N calls in scope only, counting every call', () => {
    const faults = new AwsFaults({ clock: new FakeClock(0) });
    faults.throttleNext({ service: 'ec2', action: 'CreateFleet' }, 2);
    faults.failNext({ service: 'sqs' }, 1, 'unavailable');
    expect(faults.admit('ec2', 'DescribeInstances')).toBeUndefined();
    expect(faults.admit('ec2', 'CreateFleet')).toEqual({ kind: 'throttle' });
    expect(faults.admit('ec2', 'CreateFleet')).toEqual({ kind: 'throttle' });
    expect(faults.admit('ec2', 'CreateFleet')).toBeUndefined();
    expect(faults.admit('sqs', 'ReceiveMessage')).toEqual({ kind: 'unavailable' });
    expect(faults.admit('sqs', 'ReceiveMessage')).toBeUndefined();
    expect(faults.callCounts()).toEqual({ DescribeInstances: 1, CreateFleet: 3, ReceiveMessage: 2 });
  });

  it('throttles beyond a rate per clock second', () => {
    const clock = new FakeClock(0);
    const faults = new AwsFaults({ clock });
    faults.throttleRate({ service: 'pricing' }, 2);
    const seen = () => faults.admit('pricing', 'GetProducts')?.kind ?? 'ok';
    expect([seen(), seen(), seen()]).toEqual(['ok', 'ok', 'throttle']);
    clock.step(1000);
    expect(seen()).toBe('ok');
  });

  it('throttles a share of the calls in scope, evenly, until the deadline', () => {
    const clock = new FakeClock(0);
    const faults = new AwsFaults({ clock });
    faults.throttleShare({ service: 'ec2' }, 0.5, 10_000);
    const seen = (service: 'ec2' | 'sqs' = 'ec2') => faults.admit(service, 'CreateFleet')?.kind ?? 'ok';
    expect([seen(), seen(), seen(), seen()]).toEqual(['throttle', 'ok', 'throttle', 'ok']);
    expect(seen('sqs')).toBe('ok');
    faults.throttleShare({ service: 'sqs' }, 0.25, 10_000);
    expect([seen('sqs'), seen('sqs'), seen('sqs'), seen('sqs'), seen('sqs')]).toEqual([
      'throttle',
      'ok',
      'ok',
      'ok',
      'throttle',
    ]);
    clock.step(10_000);
    expect([seen(), seen()]).toEqual(['ok', 'ok']);
    expect(faults.sharedThrottles()).toEqual({ seen: 9, throttled: 4 });
  });

  it('holds the next calls of an action for their latency, then answers later ones at once', () => {
    const faults = new AwsFaults({ clock: new FakeClock(0) });
    faults.latency('DescribeSubnets', 5);
    faults.latencyNext('CreateFleet', 600_000, 2);
    expect(
      ['CreateFleet', 'CreateFleet', 'CreateFleet', 'DescribeSubnets'].map((a) => faults.latencyOf(a)),
    ).toEqual([600_000, 600_000, 0, 5]);
  });

  it('tracks pool capacity down to zero and restores it', () => {
    const faults = new AwsFaults({ clock: new FakeClock(0) });
    const pool = { capacityType: 'spot' as const, instanceType: 'm5.large', zone: 'us-east-1a' };
    expect(faults.capacityLeft(pool)).toBeUndefined();
    faults.insufficientCapacity(pool, 2);
    faults.consumeCapacity(pool, 5);
    expect(faults.capacityLeft(pool)).toBe(0);
    faults.restoreCapacity(pool);
    expect(faults.capacityLeft(pool)).toBeUndefined();
  });
});
