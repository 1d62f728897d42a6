import { describe, expect, it } from 'vitest';
import { scaledValue } from './int-or-percent.js';

describe('scaledValue', () => {
  it('passes integers through', () => {
    expect(scaledValue(3, 10, true)).toBe(3);
  });

  it('scales percentages, rounding as asked', () => {
    expect(scaledValue('50%', 5, true)).toBe(3);
    expect(scaledValue('50%', 5, false)).toBe(2);
    expect(scaledValue('10%', 1, true)).toBe(1);
    expect(scaledValue('0%', 7, true)).toBe(0);
    expect(scaledValue('100%', 7, false)).toBe(7);
  });

  it('rejects strings that are not percentages', () => {
    expect(() => scaledValue('3', 10, true)).toThrow(/not a percentage/);
    expect(() => scaledValue(1.5, 10, true)).toThrow();
  });
});
