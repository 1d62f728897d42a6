import { Registry } from 'prom-client';
import { type Defer, deferToEventLoop } from '../../clock/slices.js';

/** Series written between two turns of the event loop within one metric. */
export const SeriesPerTurn = 2_000;

/**
 * A registered metric as it is at run time (`getMetricsAsArray()` is typed as plain objects, but
 * holds the Gauge, Counter, Histogram and Summary instances themselves).
 */
interface RegisteredMetric {
  readonly name: string;
  readonly type: unknown;
  get(): Promise<{
    readonly name: string;
    readonly help: string;
    readonly type: unknown;
    readonly values?: readonly SeriesValue[];
  }>;
}

/** One series as prom-client's `get()` returns it for a gauge or a counter. */
interface SeriesValue {
  readonly labels?: Readonly<Record<string, string | number>>;
  readonly value: number;
  readonly metricName?: string;
  readonly sharedLabels?: object;
}

/**
 * Writes a registry in the Prometheus text format, byte for byte as `registry.metrics()` does,
 * without holding the event loop: a turn (`defer`) before each metric and every
 * `SeriesPerTurn` series within one. A controller at 20,000 pods has a `karpenter_pods_state`
 * series per pod; prom-client formats a metric in one run of microtasks, 0.2-0.4 s at that size
 * on a 2-vCPU machine, during which Lease renewals and probes wait.
 *
 * Gauges and counters are formatted here, each series's line kept per labels object and written
 * again only when its value changed: prom-client keeps the object passed to `set`/`inc` for the
 * series (SeriesTracker passes the same one again), and most series are unchanged between two
 * scrapes. A labels object must therefore not be mutated after it is handed to a metric
 * (prom-client itself would then file it under a stale hash). Histograms and summaries, and
 * every metric of a registry with default labels or the OpenMetrics content type, are left to
 * prom-client. Keep one instance per registry across scrapes, so the lines are reused.
 */
export class MetricsText {
  /** Per metric name, per labels object: its label text, and the last line written with it. */
  readonly #lines = new Map<
    string,
    WeakMap<object, { readonly labels: string; value: number; line: string }>
  >();

  /** The registry's exposition. */
  async render(registry: Registry, defer: Defer = deferToEventLoop): Promise<string> {
    const own = ownFormatPossible(registry);
    const parts: string[] = [];
    for (const metric of registry.getMetricsAsArray() as unknown as RegisteredMetric[]) {
      await defer();
      const type = String(metric.type);
      parts.push(
        own && (type === 'gauge' || type === 'counter')
          ? await this.#format(registry, metric, defer)
          : await registry.getSingleMetricAsString(metric.name),
      );
    }
    return `${parts.join('\n\n')}\n`;
  }

  async #format(registry: Registry, metric: RegisteredMetric, defer: Defer): Promise<string> {
    const data = await metric.get();
    const name = escapeString(data.name);
    const lines = [`# HELP ${name} ${escapeString(data.help)}`, `# TYPE ${name} ${String(data.type)}`];
    const values = data.values ?? [];
    let known = this.#lines.get(data.name);
    if (known === undefined) {
      known = new WeakMap();
      this.#lines.set(data.name, known);
    }
    for (let i = 0; i < values.length; i++) {
      if (i > 0 && i % SeriesPerTurn === 0) await defer();
      const v = values[i]!;
      // Shared labels are a histogram's; a metric that reports them is left to prom-client.
      if (v.sharedLabels !== undefined) return registry.getSingleMetricAsString(metric.name);
      const metricName = v.metricName ?? name;
      if (v.labels === undefined || metricName !== name) {
        lines.push(`${metricName}${labelText(v.labels)} ${valueText(v.value)}`);
        continue;
      }
      let cached = known.get(v.labels);
      if (cached === undefined) {
        const labels = labelText(v.labels);
        cached = { labels, value: v.value, line: `${name}${labels} ${valueText(v.value)}` };
        known.set(v.labels, cached);
      } else if (!Object.is(cached.value, v.value)) {
        cached.value = v.value;
        cached.line = `${name}${cached.labels} ${valueText(v.value)}`;
      }
      lines.push(cached.line);
    }
    return lines.join('\n');
  }
}

function labelText(labels: Readonly<Record<string, string | number>> | undefined): string {
  if (labels === undefined) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(labels))
    parts.push(`${key}="${typeof value === 'string' ? escapeLabelValue(value) : value}"`);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

/** The Prometheus text format without default labels: the case `render` writes itself. */
function ownFormatPossible(registry: Registry): boolean {
  if (registry.contentType !== Registry.PROMETHEUS_CONTENT_TYPE) return false;
  // prom-client has no getter for them; a registry without the field is not formatted here.
  const defaults = (registry as unknown as { _defaultLabels?: object })._defaultLabels;
  return defaults !== undefined && Object.keys(defaults).length === 0;
}

const NeedsEscape = /[\\\n"]/;

function escapeString(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabelValue(text: string): string {
  return NeedsEscape.test(text) ? escapeString(text).replace(/"/g, '\\"') : text;
}

function valueText(value: number): string {
  if (Number.isNaN(value)) return 'Nan';
  if (!Number.isFinite(value)) return value < 0 ? '-Inf' : '+Inf';
  return `${value}`;
}
