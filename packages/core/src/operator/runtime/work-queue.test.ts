import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/clock.js';
import { ManualTimers } from '../../clock/timers.js';
import { WorkQueue } from './work-queue.js';

function queue() {
  const clock = new FakeClock(1_000_000);
  const timers = new ManualTimers(clock);
  const q = new WorkQueue(timers, () => clock.now());
  return { q, clock, timers };
}

describe('WorkQueue', () => {
  it('deduplicates queued keys and hands them out in order', () => {
    const { q } = queue();
    q.add('a');
    q.add('b');
    q.add('a');
    expect(q.length).toBe(2);
    expect([q.get(), q.get(), q.get()]).toEqual(['a', 'b', undefined]);
  });

  it('never hands out a key being processed; an add meanwhile runs it once more after done', () => {
    const { q } = queue();
    q.add('a');
    expect(q.get()).toBe('a');
    q.add('a');
    q.add('a');
    expect(q.get()).toBeUndefined();
    q.done('a');
    expect(q.get()).toBe('a');
    q.done('a');
    expect(q.get()).toBeUndefined();
  });

  it('delays adds on the timers and keeps the earliest delay per key', async () => {
    const { q, timers, clock } = queue();
    q.addAfter('a', 5_000);
    q.addAfter('a', 1_000);
    q.addAfter('a', 9_000);
    expect(q.delayedUntil('a')).toBe(clock.now() + 1_000);
    await timers.advance(999);
    expect(q.length).toBe(0);
    await timers.advance(1);
    expect(q.get()).toBe('a');
    expect(q.delayed).toBe(0);
    q.done('a');
    await timers.advance(10_000);
    expect(q.length).toBe(0);
  });

  it('an immediate add supersedes a pending delay', async () => {
    const { q, timers } = queue();
    q.addAfter('a', 1_000);
    q.add('a');
    expect(q.delayed).toBe(0);
    expect(q.get()).toBe('a');
    q.done('a');
    await timers.advance(2_000);
    expect(q.length).toBe(0);
  });

  it('calls onReady when a key becomes ready, and stops after shutDown', async () => {
    const { q, timers } = queue();
    let ready = 0;
    q.onReady = () => ready++;
    q.add('a');
    q.add('a');
    q.addAfter('b', 10);
    await timers.advance(10);
    expect(ready).toBe(2);
    q.shutDown();
    q.add('c');
    expect(q.length).toBe(0);
  });

  it('reports how long each key waited between becoming ready and being handed out', () => {
    const clock = new FakeClock(1_000_000);
    const waits: number[] = [];
    const q = new WorkQueue(new ManualTimers(clock), () => clock.now(), { waited: (ms) => waits.push(ms) });
    q.add('a');
    clock.step(250);
    q.add('b');
    clock.step(100);
    expect([q.get(), q.get()]).toEqual(['a', 'b']);
    // Added again while processing: it waits from `done`, not from the add.
    q.add('a');
    clock.step(1_000);
    q.done('a');
    clock.step(40);
    q.get();
    expect(waits).toEqual([350, 100, 40]);
  });
});
