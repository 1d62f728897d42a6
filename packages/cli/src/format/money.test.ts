import { describe, expect, it } from 'vitest';
import { decimalsForStep, formatCost, formatDollarsForStep, formatPerHour } from './money.js';

describe('formatPerHour', () => {
  it('prints dollars per hour to four decimals', () => {
    expect(formatPerHour(0.304052)).toBe('$0.3041/h');
    expect(formatPerHour(0.384)).toBe('$0.3840/h');
    expect(formatPerHour(0.0058)).toBe('$0.0058/h');
    expect(formatPerHour(12.5)).toBe('$12.5000/h');
    expect(formatPerHour(0)).toBe('$0.0000/h');
  });

  it('rounds a lower bound down, so it is never printed above itself', () => {
    expect(formatPerHour(0.30499, { round: 'down' })).toBe('$0.3049/h');
    expect(formatPerHour(0.30499)).toBe('$0.3050/h');
    // 0.3041 is not exact in binary; flooring must not lose the last digit.
    expect(formatPerHour(0.3041, { round: 'down' })).toBe('$0.3041/h');
  });

  it('puts the sign before the currency, and shows no negative zero', () => {
    expect(formatPerHour(-0.12)).toBe('-$0.1200/h');
    expect(formatPerHour(-0.00001)).toBe('$0.0000/h');
  });
});

describe('formatCost', () => {
  it('prints a total in dollars and cents', () => {
    expect(formatCost(13.7821)).toBe('$13.78');
    expect(formatCost(0.005)).toBe('$0.01');
    expect(formatCost(-2)).toBe('-$2.00');
  });
});

describe('formatDollarsForStep', () => {
  it('prints whole dollars for whole steps, else cents or the finer decimals the step needs', () => {
    expect(formatDollarsForStep(0.75, 0.25)).toBe('$0.75');
    expect(formatDollarsForStep(1, 0.5)).toBe('$1.00');
    expect(formatDollarsForStep(0.025, 0.005)).toBe('$0.025');
    expect(formatDollarsForStep(20, 10)).toBe('$20');
    expect(decimalsForStep(0.02)).toBe(2);
    expect(decimalsForStep(5)).toBe(0);
  });
});
