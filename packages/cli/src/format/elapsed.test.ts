import { describe, expect, it } from 'vitest';
import { formatElapsed } from './elapsed.js';

describe('formatElapsed', () => {
  it('shows tenths of a second under a minute, then minutes and seconds, then hours and minutes', () => {
    expect(formatElapsed(0)).toBe('0.0 s');
    expect(formatElapsed(-5)).toBe('0.0 s');
    expect(formatElapsed(412)).toBe('0.4 s');
    expect(formatElapsed(12_345)).toBe('12.3 s');
    expect(formatElapsed(59_960)).toBe('1 min 00 s');
    expect(formatElapsed(245_000)).toBe('4 min 05 s');
    expect(formatElapsed(3_599_400)).toBe('59 min 59 s');
    expect(formatElapsed(3_600_000)).toBe('1 h 00 min');
    expect(formatElapsed(7_380_000)).toBe('2 h 03 min');
  });
});
