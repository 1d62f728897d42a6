import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge, type Registry } from 'prom-client';

/**
 * A histogram of how late the event loop ran its timers, in nanoseconds: what
 * `perf_hooks.monitorEventLoopDelay` returns. Recording happens between `enable()` and
 * `disable()`; readings cover everything recorded since the first `enable()`.
 */
export interface EventLoopDelaySource {
  enable(): boolean;
  disable(): boolean;
  /** The delay at percentile `p` (0 < p ≤ 100), in nanoseconds; 0 before anything was recorded. */
  percentile(p: number): number;
  /** The longest delay recorded, in nanoseconds. */
  readonly max: number;
}

/** The default source: Node's own sampler, one timer every `resolutionMs`. */
export function nodeEventLoopDelay(resolutionMs = 10): EventLoopDelaySource {
  return monitorEventLoopDelay({ resolution: resolutionMs });
}

/** The metric's name; nodewright's own, as Karpenter (in Go) has no event loop to report. */
export const EventLoopDelayMetricName = 'nodewright_event_loop_delay_seconds';

/** The quantiles exported, as the `quantile` label: median, tail, and the worst (`1`). */
const Quantiles: readonly { readonly label: string; readonly read: (s: EventLoopDelaySource) => number }[] = [
  { label: '0.5', read: (s) => s.percentile(50) },
  { label: '0.99', read: (s) => s.percentile(99) },
  { label: '1', read: (s) => s.max },
];

/**
 * Registers `nodewright_event_loop_delay_seconds{quantile="0.5"|"0.99"|"1"}`, read from `source` at
 * scrape time. A gauge per quantile rather than a prom-client Summary because the histogram is
 * Node's (kept off the event loop's own work), not observations we make. The readings cover the
 * whole time the operator has run, not the interval since the last scrape: a spike between
 * two scrapes is never lost, and two scrapers cannot reset each other's window. Replaces a gauge
 * of that name already in the registry.
 */
export function registerEventLoopDelayMetric(registry: Registry, source: EventLoopDelaySource): void {
  registry.removeSingleMetric(EventLoopDelayMetricName);
  new Gauge({
    name: EventLoopDelayMetricName,
    help: 'How late the event loop ran timers since the operator started (perf_hooks.monitorEventLoopDelay), at the median (quantile 0.5), the 99th percentile and the maximum (quantile 1). A long solve or consolidation search that does not yield shows here before it delays Lease renewal or health probes.',
    labelNames: ['quantile'],
    registers: [registry],
    collect() {
      for (const q of Quantiles) this.set({ quantile: q.label }, nanosToSeconds(q.read(source)));
    },
  });
}

function nanosToSeconds(nanos: number): number {
  return Number.isFinite(nanos) ? nanos / 1e9 : 0;
}
