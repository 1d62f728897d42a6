import { describe, expect, it } from 'vitest';
import { SeededRandom } from '../random/random.js';
import { sampleLatency } from './latency.js';

describe('sampleLatency', () => {
  it('returns fixed latencies without drawing', () => {
    const r = new SeededRandom(1);
    const before = new SeededRandom(1).next();
    expect(sampleLatency(1500.4, r)).toBe(1500);
    expect(sampleLatency(-5, r)).toBe(0);
    expect(r.next()).toBe(before);
  });

  it('draws distributions within their support', () => {
    const r = new SeededRandom(2);
    for (let i = 0; i < 1000; i++) {
      const u = sampleLatency({ uniform: { minMs: 100, maxMs: 200 } }, r);
      expect(u).toBeGreaterThanOrEqual(100);
      expect(u).toBeLessThanOrEqual(200);
      expect(sampleLatency({ normal: { meanMs: 10, stddevMs: 50 } }, r)).toBeGreaterThanOrEqual(0);
      expect(Number.isInteger(sampleLatency({ exponential: { meanMs: 30 } }, r))).toBe(true);
    }
  });
});
