import { describe, expect, it } from 'vitest';
import { eachBounded } from './each-bounded.js';

describe('eachBounded', () => {
  it('runs every item with no more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    await eachBounded([...Array(25).keys()], 4, async (i) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      done.push(i);
      running--;
    });
    expect(peak).toBe(4);
    expect(done.sort((a, b) => a - b)).toEqual([...Array(25).keys()]);
  });

  it('finishes the other items before rethrowing a failure', async () => {
    const done: number[] = [];
    await expect(
      eachBounded([1, 2, 3, 4], 2, async (i) => {
        if (i === 1) throw new Error('poison');
        done.push(i);
      }),
    ).rejects.toThrow('poison');
    expect(done).toEqual([2, 3, 4]);
  });

  it('does nothing for no items', async () => {
    await eachBounded([], 3, async () => {
      throw new Error('never called');
    });
  });
});
