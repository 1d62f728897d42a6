import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/clock.js';
import { UnavailableOfferingsCache } from './unavailable-offerings.js';

const spotA = { capacityType: 'spot', instanceType: 'm5.large', zone: 'us-east-1a' };
const spotB = { capacityType: 'spot', instanceType: 'm5.large', zone: 'us-east-1b' };

describe('UnavailableOfferingsCache', () => {
  it('marks one offering and leaves its neighbours alone', () => {
    const cache = new UnavailableOfferingsCache(new FakeClock(0));
    cache.markUnavailable(spotA, 'InsufficientInstanceCapacity');
    expect(cache.isUnavailable(spotA)).toBe(true);
    expect(cache.reason(spotA)).toBe('InsufficientInstanceCapacity');
    expect(cache.isUnavailable(spotB)).toBe(false);
    expect(cache.isUnavailable({ ...spotA, capacityType: 'on-demand' })).toBe(false);
  });

  it('expires entries after their TTL on the injected clock', () => {
    const clock = new FakeClock(0);
    const cache = new UnavailableOfferingsCache(clock, 180_000);
    cache.markUnavailable(spotA, 'ICE');
    cache.markUnavailable(spotB, 'ICE', 30 * 60_000);
    clock.step(179_999);
    expect(cache.isUnavailable(spotA)).toBe(true);
    clock.step(1);
    expect(cache.isUnavailable(spotA)).toBe(false);
    expect(cache.isUnavailable(spotB)).toBe(true);
    expect(cache.entries().map((e) => e.zone)).toEqual(['us-east-1b']);
  });

  it('bumps its generation on marks and expiries', () => {
    const clock = new FakeClock(0);
    const cache = new UnavailableOfferingsCache(clock, 1000);
    const g0 = cache.generation();
    cache.markUnavailable(spotA, 'ICE');
    const g1 = cache.generation();
    expect(g1).toBeGreaterThan(g0);
    expect(cache.generation()).toBe(g1);
    clock.step(1000);
    expect(cache.generation()).toBeGreaterThan(g1);
  });
});
