import { describe, expect, it } from 'vitest';
import { takeoverOf, takeoverWindow } from './failover.js';

describe('takeoverWindow', () => {
  it('is leaseDuration at the earliest and two retry rounds later at the latest', () => {
    expect(takeoverWindow({ leaseDurationMs: 15_000, retryPeriodMs: 2_000 }, 1_000)).toEqual({
      earliestMs: 15_000,
      latestMs: 23_000,
    });
  });
});

describe('takeoverOf', () => {
  const held = {
    holderIdentity: 'a',
    renewTime: '2026-03-02T09:00:00.250000Z',
    acquireTime: '2026-03-02T08:00:00.000000Z',
  };

  it('reads the old holder’s last renewal and the new holder’s acquisition (MicroTime)', () => {
    const taken = {
      holderIdentity: 'b',
      renewTime: '2026-03-02T09:00:16.000000Z',
      acquireTime: '2026-03-02T09:00:15.500000Z',
    };
    expect(takeoverOf(held, taken)).toEqual({
      lastRenewMs: Date.parse('2026-03-02T09:00:00.250Z'),
      acquiredMs: Date.parse('2026-03-02T09:00:15.500Z'),
    });
  });

  it('is undefined without a change of holder or without times', () => {
    expect(takeoverOf(held, held)).toBeUndefined();
    expect(takeoverOf(held, { holderIdentity: '' })).toBeUndefined();
    expect(takeoverOf(held, { holderIdentity: 'b' })).toBeUndefined();
  });
});
