import { Gauge, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SeriesTracker } from './series.js';

async function values(gauge: Gauge<string>) {
  return (await gauge.get()).values.map((v) => [v.labels, v.value]);
}

describe('SeriesTracker', () => {
  it('replaces an owner series wholesale and removes them all with the owner, leaving others alone', async () => {
    const registry = new Registry();
    const gauge = new Gauge({ name: 'g', help: 'h', labelNames: ['o', 'r'], registers: [registry] });
    const tracker = new SeriesTracker();
    tracker.replace('a', gauge, [
      { labels: { o: 'a', r: 'cpu' }, value: 1 },
      { labels: { o: 'a', r: 'memory' }, value: 2 },
    ]);
    tracker.replace('b', gauge, [{ labels: { o: 'b', r: 'cpu' }, value: 3 }]);
    tracker.replace('a', gauge, [{ labels: { o: 'a', r: 'cpu' }, value: 5 }]);
    expect(await values(gauge)).toEqual([
      [{ o: 'a', r: 'cpu' }, 5],
      [{ o: 'b', r: 'cpu' }, 3],
    ]);
    tracker.remove('a');
    expect(await values(gauge)).toEqual([[{ o: 'b', r: 'cpu' }, 3]]);
    expect(tracker.owners()).toEqual(['b']);
    tracker.replace('b', gauge, []);
    expect(await values(gauge)).toEqual([]);
    expect(tracker.owners()).toEqual([]);
  });

  it('writes nothing for a series already set to that value, and keeps the first labels object for it', async () => {
    const registry = new Registry();
    const gauge = new Gauge({ name: 'g', help: 'h', labelNames: ['o', 'r'], registers: [registry] });
    const tracker = new SeriesTracker();
    const first = { o: 'a', r: 'cpu' };
    tracker.replace('a', gauge, [{ labels: first, value: 1 }]);
    const sets: unknown[] = [];
    const set = gauge.set.bind(gauge);
    gauge.set = ((labels: unknown, value: number) => {
      sets.push(labels);
      set(labels as Record<string, string>, value);
    }) as typeof gauge.set;
    tracker.replace('a', gauge, [{ labels: { r: 'cpu', o: 'a' }, value: 1 }]);
    expect(sets).toEqual([]);
    tracker.replace('a', gauge, [{ labels: { o: 'a', r: 'cpu' }, value: 2 }]);
    expect(sets).toHaveLength(1);
    expect(sets[0]).toBe(first);
    expect((await gauge.get()).values[0]?.labels).toBe(first);
    expect(await values(gauge)).toEqual([[{ o: 'a', r: 'cpu' }, 2]]);
    // The same series twice in one call: the last value holds, as it did when every one was set.
    tracker.replace('a', gauge, [
      { labels: { o: 'a', r: 'cpu' }, value: 3 },
      { labels: { o: 'a', r: 'cpu' }, value: 2 },
    ]);
    expect(await values(gauge)).toEqual([[{ o: 'a', r: 'cpu' }, 2]]);
  });
});
