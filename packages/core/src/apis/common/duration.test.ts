import { expect, test } from 'vitest';
import { BudgetDurationPattern, DurationOrNeverPattern, DurationPattern, durationMs } from './duration.js';

test('durations convert to milliseconds, Never to Infinity', () => {
  expect(durationMs('720h')).toBe(720 * 3_600_000);
  expect(durationMs('1h30m')).toBe(90 * 60_000);
  expect(durationMs('90s')).toBe(90_000);
  expect(durationMs('0s')).toBe(0);
  expect(durationMs('Never')).toBe(Number.POSITIVE_INFINITY);
  expect(durationMs('1d')).toBeUndefined();
  expect(durationMs('')).toBeUndefined();
});

test('the patterns match what upstream accepts', () => {
  const terminationGracePeriod = new RegExp(DurationPattern);
  const expireAfter = new RegExp(DurationOrNeverPattern);
  const budget = new RegExp(BudgetDurationPattern);
  expect(['30s', '1h30m', '48h'].every((d) => terminationGracePeriod.test(d))).toBe(true);
  expect(terminationGracePeriod.test('Never')).toBe(false);
  expect(expireAfter.test('Never')).toBe(true);
  expect(expireAfter.test('never')).toBe(false);
  expect(['10m', '8h', '1h30m', '1h0m0s', '30m0s'].every((d) => budget.test(d))).toBe(true);
  expect(['30s', '1h30m15s', 'Never'].some((d) => budget.test(d))).toBe(false);
});
