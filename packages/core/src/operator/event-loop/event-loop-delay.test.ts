import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import {
  EventLoopDelayMetricName,
  type EventLoopDelaySource,
  registerEventLoopDelayMetric,
} from './event-loop-delay.js';

function fixedSource(p50: number, p99: number, max: number): EventLoopDelaySource {
  return {
    enable: () => true,
    disable: () => true,
    percentile: (p) => (p === 50 ? p50 : p === 99 ? p99 : Number.NaN),
    max,
  };
}

describe('registerEventLoopDelayMetric', () => {
  it('exports the median, p99 and max in seconds, read at scrape time', async () => {
    const registry = new Registry();
    let source = fixedSource(1e6, 25e6, 180e6);
    registerEventLoopDelayMetric(registry, {
      ...source,
      percentile: (p) => source.percentile(p),
      get max() {
        return source.max;
      },
    });
    const text = await registry.metrics();
    expect(text).toContain(`${EventLoopDelayMetricName}{quantile="0.5"} 0.001`);
    expect(text).toContain(`${EventLoopDelayMetricName}{quantile="0.99"} 0.025`);
    expect(text).toContain(`${EventLoopDelayMetricName}{quantile="1"} 0.18`);
    source = fixedSource(2e6, 3e6, 4e6);
    expect(await registry.metrics()).toContain(`${EventLoopDelayMetricName}{quantile="1"} 0.004`);
  });

  it('replaces a gauge of the same name already registered', async () => {
    const registry = new Registry();
    registerEventLoopDelayMetric(registry, fixedSource(1e6, 1e6, 1e6));
    registerEventLoopDelayMetric(registry, fixedSource(5e6, 5e6, 5e6));
    expect(await registry.metrics()).toContain(`${EventLoopDelayMetricName}{quantile="0.5"} 0.005`);
  });
});
