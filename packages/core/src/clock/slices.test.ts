import { describe, expect, it } from 'vitest';
import { timeSlices } from './slices.js';

describe('timeSlices', () => {
  it('is due once sliceMs passed since the slice began, and a yield starts a new slice', async () => {
    let now = 100;
    const order: string[] = [];
    const slices = timeSlices(
      () => now,
      async () => {
        order.push('defer');
        now += 3;
      },
      10,
    );
    now = 109;
    expect(slices.due()).toBe(false);
    now = 110;
    expect(slices.due()).toBe(true);
    await slices.yield();
    expect(order).toEqual(['defer']);
    // The new slice began after the turn (113), not when yield was called.
    now = 122;
    expect(slices.due()).toBe(false);
    now = 123;
    expect(slices.due()).toBe(true);
  });

  it('never ends a slice of Infinity, and never reads the clock for it', () => {
    let now = 0;
    let reads = 0;
    const slices = timeSlices(
      () => {
        reads++;
        return now;
      },
      async () => {},
      Number.POSITIVE_INFINITY,
    );
    now = 1e12;
    expect(slices.due()).toBe(false);
    expect(reads).toBe(0);
  });
});
