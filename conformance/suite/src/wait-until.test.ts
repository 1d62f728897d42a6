import { describe, expect, it } from 'vitest';
import { waitUntil } from './wait-until.js';

/** A clock that moves only when the waiter sleeps. */
function fakeTime() {
  let t = 0;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
  };
}

describe('waitUntil', () => {
  it('returns the first result that satisfies the condition', async () => {
    const results = [1, 2, 3, 4];
    const time = fakeTime();
    const value = await waitUntil(
      async () => results.shift() ?? 0,
      (v) => v >= 3,
      { timeoutMs: 1000, intervalMs: 10, what: 'three', ...time },
    );
    expect(value).toBe(3);
    expect(time.now()).toBe(20);
  });

  it('fails after the timeout, naming what it waited for and what it last saw', async () => {
    const time = fakeTime();
    await expect(
      waitUntil(
        async () => 'False',
        (v) => v === 'True',
        { timeoutMs: 50, intervalMs: 20, what: 'Established', ...time },
      ),
    ).rejects.toThrow(/waiting for Established; last saw "False"/);
  });
});
