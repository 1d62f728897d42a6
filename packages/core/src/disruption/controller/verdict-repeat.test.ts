import { describe, expect, it } from 'vitest';
import { verdictDue } from './verdict-repeat.js';

describe('verdictDue', () => {
  const last = { message: 'no instance type is cheaper than $0.4/h', at: 1_000 };
  const window = 15 * 60_000;

  it('publishes a first verdict, never the same one again', () => {
    expect(verdictDue(undefined, last.message, 1_000, window)).toBe(true);
    expect(verdictDue(last, last.message, 1_000 + 2 * window, window)).toBe(false);
  });

  it('holds a changed verdict until the interval has passed since the last event', () => {
    expect(verdictDue(last, 'its pods would not all reschedule', 1_000 + window - 1, window)).toBe(false);
    expect(verdictDue(last, 'its pods would not all reschedule', 1_000 + window, window)).toBe(true);
  });
});
