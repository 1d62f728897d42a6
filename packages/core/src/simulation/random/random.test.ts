import { describe, expect, it } from 'vitest';
import { SeededRandom } from './random.js';

describe('SeededRandom', () => {
  it('repeats its sequence for the same seed and differs for another', () => {
    const a = new SeededRandom(42);
    const b = new SeededRandom(42);
    const c = new SeededRandom(43);
    const seqA = Array.from({ length: 5 }, () => a.next());
    const seqB = Array.from({ length: 5 }, () => b.next());
    const seqC = Array.from({ length: 5 }, () => c.next());
    expect(seqA).toEqual(seqB);
    expect(seqA).not.toEqual(seqC);
    for (const x of seqA) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });

  it('forks streams that depend on the seed and label only', () => {
    const a = new SeededRandom('s');
    const b = new SeededRandom('s');
    b.next();
    b.next();
    expect(a.fork('ice').next()).toBe(b.fork('ice').next());
    expect(a.fork('ice').next()).not.toBe(a.fork('spot').next());
  });

  it('is roughly uniform and its helpers respect their ranges', () => {
    const r = new SeededRandom(7);
    const buckets = [0, 0, 0, 0];
    for (let i = 0; i < 40_000; i++) buckets[r.int(4)]!++;
    for (const n of buckets) expect(Math.abs(n - 10_000)).toBeLessThan(400);
    expect(r.chance(0)).toBe(false);
    expect(r.chance(1)).toBe(true);
    let sum = 0;
    for (let i = 0; i < 20_000; i++) sum += r.exponential(10);
    expect(sum / 20_000).toBeGreaterThan(9.5);
    expect(sum / 20_000).toBeLessThan(10.5);
    const shuffled = r.shuffle([1, 2, 3, 4, 5]);
    expect([...shuffled].sort()).toEqual([1, 2, 3, 4, 5]);
    expect(() => r.int(0)).toThrow(RangeError);
  });
});
