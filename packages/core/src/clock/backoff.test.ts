import { describe, expect, it } from 'vitest';
import { backoffDelay, ControllerBackoff, ItemBackoff, WatchBackoff } from './backoff.js';

describe('backoff', () => {
  it('doubles from 5 ms and caps at 1000 s, as controller-runtime does', () => {
    expect(backoffDelay(ControllerBackoff, 1)).toBe(5);
    expect(backoffDelay(ControllerBackoff, 2)).toBe(10);
    expect(backoffDelay(ControllerBackoff, 11)).toBe(5 * 1024);
    expect(backoffDelay(ControllerBackoff, 40)).toBe(1_000_000);
    expect(backoffDelay(ControllerBackoff, 5000)).toBe(1_000_000);
  });

  it('backs a watch off from 500 ms to 30 s, jittered down by up to half, and any factor grows the same way', () => {
    const none = () => 0;
    expect([1, 2, 3, 7, 8].map((n) => backoffDelay(WatchBackoff, n, none))).toEqual([
      500, 1000, 2000, 30_000, 30_000,
    ]);
    const most = () => 0.999_999;
    expect([1, 2, 8].map((n) => Math.round(backoffDelay(WatchBackoff, n, most)))).toEqual([250, 500, 15_000]);
    expect(backoffDelay(WatchBackoff, 3, () => 0.5)).toBe(1500);
    // Unjittered policies never draw.
    expect(
      backoffDelay(ControllerBackoff, 3, () => {
        throw new Error('drew');
      }),
    ).toBe(20);
    expect(backoffDelay({ baseMs: 10, maxMs: 1000, factor: 3 }, 3)).toBe(90);
    expect(backoffDelay(WatchBackoff, 0, none)).toBe(0);
  });

  it('counts failures per key and forgets them on success', () => {
    const b = new ItemBackoff({ baseMs: 100, maxMs: 1000 });
    expect([b.next('a'), b.next('a'), b.next('b'), b.next('a')]).toEqual([100, 200, 100, 400]);
    b.forget('a');
    expect(b.failures('a')).toBe(0);
    expect(b.next('a')).toBe(100);
    expect(b.failures('b')).toBe(1);
  });
});
