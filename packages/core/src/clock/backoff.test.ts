import { describe, expect, it } from 'vitest';
import { backoffDelay, DefaultBackoff, ItemBackoff } from './backoff.js';

describe('backoff', () => {
  it('doubles from 5 ms and caps at 1000 s, as controller-runtime does', () => {
    expect(backoffDelay(DefaultBackoff, 1)).toBe(5);
    expect(backoffDelay(DefaultBackoff, 2)).toBe(10);
    expect(backoffDelay(DefaultBackoff, 11)).toBe(5 * 1024);
    expect(backoffDelay(DefaultBackoff, 40)).toBe(1_000_000);
    expect(backoffDelay(DefaultBackoff, 5000)).toBe(1_000_000);
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
