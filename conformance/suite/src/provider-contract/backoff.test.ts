import { describe, expect, it } from 'vitest';
import { backoffProblems } from './backoff.js';

describe('backoffProblems', () => {
  it('accepts positive, strictly growing waits', () => {
    expect(backoffProblems([5, 10, 20])).toEqual([]);
    expect(backoffProblems([999])).toEqual([]);
  });

  it('names a retry that did not wait', () => {
    expect(backoffProblems([0, 10])).toEqual(['retry 1 waited 0 ms']);
  });

  it('names a wait that did not grow', () => {
    expect(backoffProblems([50, 50, 40])).toEqual([
      "retry 2 waited 50 ms, not longer than retry 1's 50 ms",
      "retry 3 waited 40 ms, not longer than retry 2's 50 ms",
    ]);
  });
});
