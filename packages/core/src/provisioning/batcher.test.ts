import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/clock.js';
import { ManualTimers } from '../clock/timers.js';
import { Batcher, TimedBatcher } from './batcher.js';

function setup(options?: { idleMs?: number; maxMs?: number }) {
  const clock = new FakeClock(0);
  const timers = new ManualTimers(clock);
  const closed: number[] = [];
  const batcher = new TimedBatcher(clock, timers, () => closed.push(clock.now()), options);
  return { clock, timers, closed, batcher };
}

describe('Batcher', () => {
  it('reports how long until the open batch closes', () => {
    const clock = new FakeClock(1_000);
    const b = new Batcher(clock);
    expect(b.dueInMs()).toBeUndefined();
    b.trigger();
    clock.set(1_400);
    expect(b.dueInMs()).toBe(600);
    b.trigger();
    expect(b.dueInMs()).toBe(1_000);
    expect(b.openedAt()).toBe(1_000);
    clock.set(2_400);
    expect(b.isDue()).toBe(true);
    b.close();
    expect(b.isOpen()).toBe(false);
  });
});

describe('TimedBatcher', () => {
  it('closes 1 s after a single pod', async () => {
    const { timers, closed, batcher } = setup();
    batcher.trigger();
    await timers.advance(999);
    expect(closed).toEqual([]);
    await timers.advance(1);
    expect(closed).toEqual([1_000]);
    expect(batcher.isOpen()).toBe(false);
  });

  it('pods 0.5 s apart extend the batch until the 10 s maximum, then a new batch opens', async () => {
    const { timers, closed, batcher } = setup();
    for (let t = 0; t <= 12_000; t += 500) {
      batcher.trigger();
      await timers.advance(500);
    }
    // First batch: 0..10 s. The pod at 10 s opens the second batch, which closes 1 s after the
    // last pod (12 s) at 13 s.
    expect(closed).toEqual([10_000]);
    await timers.advance(500);
    expect(closed).toEqual([10_000, 13_000]);
    expect(timers.pending()).toBe(0);
  });

  it('honours configured durations and stops cleanly', async () => {
    const { timers, closed, batcher } = setup({ idleMs: 100, maxMs: 250 });
    batcher.trigger();
    await timers.advance(90);
    batcher.trigger();
    await timers.advance(90);
    batcher.trigger();
    await timers.advance(100);
    expect(closed).toEqual([250]);
    batcher.trigger();
    batcher.stop();
    await timers.advance(1_000);
    expect(closed).toEqual([250]);
  });
});
