import { Counter, Gauge, Histogram, Registry, Summary } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { MetricsText, SeriesPerTurn } from './metrics-text.js';

const Awkward = ['plain', 'back\\slash', 'new\nline', 'say "hi"', 'ünïcode', '', 'a\\"\n'];

/** A registry with every metric type, label values that need escaping, and odd values. */
function sampleRegistry(series: number): { registry: Registry; pods: Gauge<'pod' | 'node'> } {
  const registry = new Registry();
  const pods = new Gauge({
    name: 'karpenter_test_pods_state',
    help: 'per pod "state"\\ with a\nnewline',
    labelNames: ['pod', 'node'],
    registers: [registry],
  });
  for (let i = 0; i < series; i++)
    pods.set({ pod: `p-${i}-${Awkward[i % Awkward.length]}`, node: `n-${i % 7}` }, i);
  const odd = new Gauge({
    name: 'karpenter_test_odd',
    help: 'odd values',
    labelNames: ['v'],
    registers: [registry],
  });
  for (const [v, value] of [
    ['nan', Number.NaN],
    ['inf', Number.POSITIVE_INFINITY],
    ['-inf', Number.NEGATIVE_INFINITY],
    ['neg', -0.25],
    ['small', 1e-21],
    ['big', 2 ** 60],
  ] as const)
    odd.set({ v }, value);
  new Counter({ name: 'karpenter_test_plain_total', help: 'no labels', registers: [registry] }).inc(3);
  new Counter({
    name: 'karpenter_test_empty_total',
    help: 'never incremented',
    labelNames: ['x'],
    registers: [registry],
  });
  new Gauge({
    name: 'karpenter_test_collected',
    help: 'set at scrape time',
    labelNames: ['k'],
    registers: [registry],
    collect() {
      this.set({ k: 'at-scrape' }, 42);
    },
  });
  const h = new Histogram({
    name: 'karpenter_test_seconds',
    help: 'h',
    labelNames: ['c'],
    registers: [registry],
  });
  h.observe({ c: 'a"b' }, 0.3);
  new Summary({ name: 'karpenter_test_summary', help: 's', registers: [registry] }).observe(2);
  return { registry, pods };
}

describe('MetricsText', () => {
  it('writes what registry.metrics() writes, byte for byte', async () => {
    const { registry } = sampleRegistry(SeriesPerTurn * 2 + 17);
    expect(await new MetricsText().render(registry, async () => {})).toBe(await registry.metrics());
  });

  it('gives the loop a turn before each metric and every SeriesPerTurn series within one', async () => {
    const { registry } = sampleRegistry(SeriesPerTurn * 2 + 17);
    let turns = 0;
    await new MetricsText().render(registry, async () => {
      turns++;
    });
    expect(turns).toBe(registry.getMetricsAsArray().length + 2);
  });

  it('stays exact across scrapes while series change, are replaced and are removed', async () => {
    const { registry, pods } = sampleRegistry(50);
    const text = new MetricsText();
    const render = () => text.render(registry, async () => {});
    expect(await render()).toBe(await registry.metrics());
    const labels = { pod: 'kept', node: 'n-1' };
    pods.set(labels, 1);
    expect(await render()).toBe(await registry.metrics());
    // The same labels object with a new value: the kept label text, the new value.
    pods.set(labels, 2);
    const second = await render();
    expect(second).toContain('karpenter_test_pods_state{pod="kept",node="n-1"} 2');
    expect(second).toBe(await registry.metrics());
    // Another object for that series, its keys in another order: prom-client writes that order.
    pods.set({ node: 'n-1', pod: 'kept' }, 3);
    expect(await render()).toContain('karpenter_test_pods_state{node="n-1",pod="kept"} 3');
    expect(await render()).toBe(await registry.metrics());
    // A counter's series keeps its labels object and changes its value in place.
    const counter = registry.getSingleMetric('karpenter_test_plain_total') as Counter;
    counter.inc(2);
    expect(await render()).toContain('karpenter_test_plain_total 5');
    expect(await render()).toBe(await registry.metrics());
    pods.remove({ pod: 'kept', node: 'n-1' });
    expect(await render()).not.toContain('pod="kept"');
    expect(await render()).toBe(await registry.metrics());
  });

  it("leaves a registry with default labels to prom-client's own formatting", async () => {
    const { registry } = sampleRegistry(20);
    registry.setDefaultLabels({ cluster: 'c"1' });
    const text = await new MetricsText().render(registry, async () => {});
    expect(text).toContain('cluster="c\\"1"');
    expect(text).toBe(await registry.metrics());
  });
});
