import { describe, expect, it } from 'vitest';
import { FakeClock } from './clock.js';

describe('FakeClock', () => {
  it('moves only when stepped', () => {
    const clock = new FakeClock(new Date('2026-01-01T00:00:00Z'));
    const start = clock.now();
    expect(clock.now()).toBe(start);
    clock.step(1500);
    expect(clock.now()).toBe(start + 1500);
  });

  it('refuses to go backwards', () => {
    const clock = new FakeClock(1000);
    expect(() => clock.step(-1)).toThrow(/backwards/);
    expect(() => clock.set(999)).toThrow(/backwards/);
    clock.set(2000);
    expect(clock.now()).toBe(2000);
  });
});
