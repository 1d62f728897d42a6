import { Gauge, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { type GaugeSample, scrapedGauge } from './metrics.js';

const samples: GaugeSample[] = [
  [{ name: 'a', namespace: 'default' }, 1.5],
  [{ name: 'b"\n', namespace: 'kube-system' }, 0],
  [{ namespace: 'x', name: 'reordered' }, -2],
];

describe('scrapedGauge', () => {
  it('writes what a prom-client Gauge set from the same samples writes, read anew at each scrape', async () => {
    const registry = new Registry();
    let read = samples;
    scrapedGauge(
      registry,
      { name: 'karpenter_test_wait', help: 'w', labelNames: ['name', 'namespace'] },
      () => read,
    );
    const reference = new Registry();
    const gauge = new Gauge({
      name: 'karpenter_test_wait',
      help: 'w',
      labelNames: ['name', 'namespace'],
      registers: [reference],
    });
    for (const [labels, value] of samples) gauge.set(labels, value);
    expect(await registry.metrics()).toBe(await reference.metrics());
    read = samples.slice(1);
    expect(await registry.metrics()).not.toContain('name="a"');
  });

  it('replaces a gauge of its name, and refuses undeclared labels and values that are not numbers', async () => {
    const registry = new Registry();
    scrapedGauge(registry, { name: 'karpenter_test_count', help: 'c', labelNames: [] }, () => [[{}, 1]]);
    scrapedGauge(registry, { name: 'karpenter_test_count', help: 'c', labelNames: [] }, () => [[{}, 2]]);
    expect(await registry.metrics()).toContain('karpenter_test_count 2');
    const bad = new Registry();
    scrapedGauge(bad, { name: 'karpenter_test_bad', help: 'b', labelNames: ['name'] }, () => [
      [{ node: 'n' }, 1],
    ]);
    await expect(bad.metrics()).rejects.toThrow(
      'Added label "node" is not included in initial labelset: name',
    );
    const nan = new Registry();
    scrapedGauge(nan, { name: 'karpenter_test_nan', help: 'n', labelNames: [] }, () => [
      [{}, 'x' as unknown as number],
    ]);
    await expect(nan.metrics()).rejects.toThrow('Value is not a valid number: x');
  });
});
