import { describe, expect, it } from 'vitest';
import { closesAt, isDue, observePod, resolveBatchOptions } from './batch-window.js';

describe('batch window', () => {
  it('opens at the first pod and closes 1 s after the last, by default', () => {
    const w = observePod(undefined, 5_000);
    expect(w).toEqual({ openedAt: 5_000, lastAt: 5_000 });
    expect(closesAt(w)).toBe(6_000);
    const later = observePod(w, 5_800);
    expect(closesAt(later)).toBe(6_800);
    expect(isDue(later, 6_799)).toBe(false);
    expect(isDue(later, 6_800)).toBe(true);
  });

  it('closes at the maximum however busy it is', () => {
    let w = observePod(undefined, 0);
    for (let t = 500; t <= 12_000; t += 500) w = observePod(w, t);
    expect(closesAt(w)).toBe(10_000);
    expect(closesAt(w, { idleMs: 200, maxMs: 3_000 })).toBe(3_000);
  });

  it('a closed window is never due; options take their defaults', () => {
    expect(isDue(undefined, Number.MAX_SAFE_INTEGER)).toBe(false);
    expect(resolveBatchOptions({ idleMs: 50 })).toEqual({ idleMs: 50, maxMs: 10_000 });
  });
});
