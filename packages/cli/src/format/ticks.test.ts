import { describe, expect, it } from 'vitest';
import { hourTicks, niceTicks } from './ticks.js';

const isRound = (step: number) => {
  const mantissa = step / 10 ** Math.floor(Math.log10(step));
  return [1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-9);
};

describe('niceTicks', () => {
  it('picks 1, 2 or 5 x 10^n steps and rounds the end up to one', () => {
    // The report's old ticks were maxY quarters: 5.25/10.5/15.75 for 21 nodes.
    expect(niceTicks(21)).toEqual({ step: 5, max: 25, values: [0, 5, 10, 15, 20, 25] });
    expect(niceTicks(66).values).toEqual([0, 20, 40, 60, 80]);
    expect(niceTicks(1.17).values).toEqual([0, 0.5, 1, 1.5]);
    expect(niceTicks(0.98).values).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(3).values).toEqual([0, 1, 2, 3]);
  });

  it('keeps every step round and the data inside the axis, over many magnitudes', () => {
    for (const max of [0.0031, 0.07, 0.9, 1, 4.2, 9.99, 12, 47, 94, 100, 333, 1234, 98765]) {
      const t = niceTicks(max);
      expect(isRound(t.step)).toBe(true);
      expect(t.max).toBeGreaterThanOrEqual(max);
      expect(t.values.length - 1).toBeLessThanOrEqual(5);
      expect(t.values.at(-1)).toBe(t.max);
    }
  });

  it('honours a smallest step (whole nodes and pods) and scales an empty chart to one step', () => {
    expect(niceTicks(2, { minStep: 1 }).values).toEqual([0, 1, 2]);
    expect(niceTicks(0, { minStep: 1 }).values).toEqual([0, 1]);
    expect(niceTicks(0).values).toEqual([0, 1]);
  });
});

describe('hourTicks', () => {
  it('divides a day into clock hours, and short runs into minutes', () => {
    expect(hourTicks(24).values).toEqual([0, 4, 8, 12, 16, 20, 24]);
    expect(hourTicks(1).values).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(hourTicks(5).step).toBe(1);
    expect(hourTicks(6.5)).toMatchObject({ step: 2, max: 8 });
  });
});
