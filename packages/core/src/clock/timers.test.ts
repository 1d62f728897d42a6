import { describe, expect, it, vi } from 'vitest';
import { FakeClock } from './clock.js';
import { ManualTimers, SystemTimers, sleep } from './timers.js';

describe('ManualTimers', () => {
  it('fires callbacks in time order with the clock at each due time', async () => {
    const clock = new FakeClock(0);
    const timers = new ManualTimers(clock);
    const seen: string[] = [];
    timers.after(300, () => seen.push(`c@${clock.now()}`));
    timers.after(100, () => seen.push(`a@${clock.now()}`));
    timers.after(100, () => seen.push(`b@${clock.now()}`));
    await timers.advance(250);
    expect(seen).toEqual(['a@100', 'b@100']);
    expect(clock.now()).toBe(250);
    await timers.advance(1000);
    expect(seen).toEqual(['a@100', 'b@100', 'c@300']);
    expect(clock.now()).toBe(1250);
  });

  it('fires timers scheduled by callbacks within the same advance', async () => {
    const clock = new FakeClock(0);
    const timers = new ManualTimers(clock);
    const seen: number[] = [];
    const tick = () => {
      seen.push(clock.now());
      if (seen.length < 5) timers.after(10, tick);
    };
    timers.after(10, tick);
    await timers.advance(35);
    expect(seen).toEqual([10, 20, 30]);
    expect(timers.nextAt()).toBe(40);
  });

  it('skips cancelled callbacks and settles async work between them', async () => {
    const clock = new FakeClock(0);
    const timers = new ManualTimers(clock);
    const seen: string[] = [];
    const cancel = timers.after(5, () => seen.push('cancelled'));
    cancel();
    timers.after(10, () => {
      void Promise.resolve().then(() => seen.push('async work'));
    });
    timers.after(10, () => seen.push('second'));
    const settle = async () => {
      await new Promise((r) => setImmediate(r));
    };
    await timers.advance(10, settle);
    expect(seen).toEqual(['async work', 'second']);
    expect(timers.pending()).toBe(0);
  });

  it('fires many timers, armed and cancelled in any order, by due time then arming order', async () => {
    const clock = new FakeClock(0);
    const timers = new ManualTimers(clock);
    const fired: Array<[number, number]> = [];
    const expected: Array<[number, number]> = [];
    let state = 12345;
    const next = () => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state;
    };
    for (let seq = 0; seq < 2000; seq++) {
      const at = next() % 500;
      const cancel = timers.after(at, () => fired.push([at, seq]));
      if (next() % 3 === 0) cancel();
      else expected.push([at, seq]);
    }
    expect(timers.pending()).toBe(expected.length);
    expected.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    await timers.advance(250);
    expect(timers.nextAt()).toBe(expected.find(([at]) => at > 250)?.[0]);
    await timers.advance(1000);
    expect(fired).toEqual(expected);
    expect(timers.pending()).toBe(0);
    expect(timers.nextAt()).toBeUndefined();
  });

  it('sleep resolves on advance and rejects on abort', async () => {
    const clock = new FakeClock(0);
    const timers = new ManualTimers(clock);
    let done = false;
    const p = sleep(timers, 1000).then(() => {
      done = true;
    });
    await timers.advance(999);
    expect(done).toBe(false);
    await timers.advance(1);
    await p;
    expect(done).toBe(true);
    const controller = new AbortController();
    const aborted = sleep(timers, 1000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
  });
});

describe('SystemTimers', () => {
  it('waits out delays longer than setTimeout allows instead of firing after 1 ms', () => {
    vi.useFakeTimers();
    try {
      const fired: number[] = [];
      const thirtyDays = 30 * 24 * 3_600_000;
      new SystemTimers().after(thirtyDays, () => fired.push(Date.now()));
      vi.advanceTimersByTime(2 ** 31);
      expect(fired).toEqual([]);
      vi.advanceTimersByTime(thirtyDays - 2 ** 31);
      expect(fired).toHaveLength(1);
      const cancelled: number[] = [];
      const cancel = new SystemTimers().after(thirtyDays, () => cancelled.push(1));
      vi.advanceTimersByTime(2 ** 31);
      cancel();
      vi.advanceTimersByTime(thirtyDays);
      expect(cancelled).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
