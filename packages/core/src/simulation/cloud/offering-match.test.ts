import { describe, expect, it } from 'vitest';
import { matchesOffering, OfferingRates } from './offering-match.js';

const key = { capacityType: 'spot', instanceType: 'm5.large', zone: 'zone-a' };

describe('matchesOffering', () => {
  it('treats absent fields as wildcards', () => {
    expect(matchesOffering({}, key)).toBe(true);
    expect(matchesOffering({ zone: 'zone-a', capacityType: 'spot' }, key)).toBe(true);
    expect(matchesOffering({ zone: 'zone-b' }, key)).toBe(false);
  });
});

describe('OfferingRates', () => {
  it('prefers the most specific matching pattern', () => {
    const rates = new OfferingRates({
      '*:*:*': 0.01,
      'spot:*:zone-a': 0.5,
      'spot:m5.large:zone-a': 0.9,
      'on-demand:*:*': 0,
    });
    expect(rates.rateFor(key)).toBe(0.9);
    expect(rates.rateFor({ ...key, instanceType: 'c5.large' })).toBe(0.5);
    expect(rates.rateFor({ ...key, zone: 'zone-b' })).toBe(0.01);
    expect(rates.rateFor({ ...key, capacityType: 'on-demand' })).toBe(0);
    expect(new OfferingRates().rateFor(key)).toBe(0);
  });

  it('rejects malformed keys and rates', () => {
    expect(() => new OfferingRates({ 'spot:zone-a': 0.1 })).toThrow(/capacityType:instanceType:zone/);
    expect(() => new OfferingRates({ '*:*:*': 1.5 })).toThrow(/probability/);
  });
});
