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
});
