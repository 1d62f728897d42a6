import { describe, expect, it } from 'vitest';
import { PodSchedulingTimes } from './pod-scheduling-times.js';

describe('PodSchedulingTimes', () => {
  it('keeps the first ack, the first decision and the first placement', () => {
    const times = new PodSchedulingTimes();
    times.ack('ns/a', 1_000);
    times.ack('ns/a', 5_000);
    expect(times.decide('ns/a', 3_000, false)).toBe(2_000);
    expect(times.decide('ns/a', 9_000, true)).toBeUndefined();
    expect(times.decide('ns/a', 12_000, true)).toBeUndefined();
    expect(times.of('ns/a')).toEqual({ ackedMs: 1_000, decidedMs: 3_000, scheduledMs: 9_000 });
  });

  it('ignores decisions about pods it never acknowledged, and forgets', () => {
    const times = new PodSchedulingTimes();
    expect(times.decide('ns/b', 1_000, true)).toBeUndefined();
    expect(times.of('ns/b')).toBeUndefined();
    times.ack('ns/c', 1_000);
    times.forget('ns/c');
    expect(times.size).toBe(0);
  });
});
