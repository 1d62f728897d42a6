import { Counter, Gauge, Histogram, type Metric, type Registry } from 'prom-client';

/** controller-runtime's metric names, so its dashboards work unchanged. */
export const RuntimeMetricNames = {
  ReconcileTotal: 'controller_runtime_reconcile_total',
  ReconcileErrors: 'controller_runtime_reconcile_errors_total',
  ReconcilePanics: 'controller_runtime_reconcile_panics_total',
  TerminalReconcileErrors: 'controller_runtime_terminal_reconcile_errors_total',
  ReconcileTime: 'controller_runtime_reconcile_time_seconds',
  ActiveWorkers: 'controller_runtime_active_workers',
  MaxConcurrentReconciles: 'controller_runtime_max_concurrent_reconciles',
  WorkQueueDepth: 'workqueue_depth',
  WorkQueueAdds: 'workqueue_adds_total',
  WorkQueueRetries: 'workqueue_retries_total',
  WorkQueueQueueDuration: 'workqueue_queue_duration_seconds',
  WorkQueueWorkDuration: 'workqueue_work_duration_seconds',
  WorkQueueUnfinishedWork: 'workqueue_unfinished_work_seconds',
  WorkQueueLongestRunning: 'workqueue_longest_running_processor_seconds',
} as const;

/** client-go's workqueue buckets: 10 ns to 1,000 s, a decade apart. */
const WorkQueueBuckets = Array.from({ length: 12 }, (_, i) => Number((1e-8 * 10 ** i).toPrecision(1)));

/**
 * The reconciles running now, per controller, read when `/metrics` is scraped: a reconcile stuck
 * for minutes shows in `workqueue_unfinished_work_seconds` while it runs, not after it ends.
 */
export class InFlightWork {
  readonly #sources = new Map<string, () => readonly number[]>();

  /** `elapsedSeconds` returns how long each of the controller's running reconciles has run. */
  track(controller: string, elapsedSeconds: () => readonly number[]): void {
    this.#sources.set(controller, elapsedSeconds);
  }

  /** Per controller: the sum of running reconciles' seconds and the longest one. */
  snapshot(): { controller: string; unfinished: number; longest: number }[] {
    return [...this.#sources].map(([controller, read]) => {
      const seconds = read();
      return {
        controller,
        unfinished: seconds.reduce((sum, s) => sum + s, 0),
        longest: seconds.reduce((max, s) => Math.max(max, s), 0),
      };
    });
  }
}

/** The runtime's metrics in one registry. */
export interface RuntimeMetrics {
  /** `result`: success, error, requeue, requeue_after. */
  readonly reconcileTotal: Counter<'controller' | 'result'>;
  readonly reconcileErrors: Counter<'controller'>;
  /** Failures that were programming errors (`isReconcilePanic`); each is in `reconcileErrors` too. */
  readonly reconcilePanics: Counter<'controller'>;
  /** Failures the reconciler declared final (`TerminalReconcileError`); each is in `reconcileErrors` too. */
  readonly terminalReconcileErrors: Counter<'controller'>;
  readonly reconcileTime: Histogram<'controller'>;
  readonly activeWorkers: Gauge<'controller'>;
  readonly maxConcurrentReconciles: Gauge<'controller'>;
  readonly depth: Gauge<'name' | 'controller'>;
  readonly adds: Counter<'name' | 'controller'>;
  readonly retries: Counter<'name' | 'controller'>;
  /** Seconds a key waited in the queue before a worker took it. */
  readonly queueDuration: Histogram<'name' | 'controller'>;
  /** Seconds a worker spent on a key. */
  readonly workDuration: Histogram<'name' | 'controller'>;
  /** Running reconciles, for the unfinished-work and longest-running gauges. */
  readonly inFlight: InFlightWork;
}

/**
 * The runtime metrics registered in `registry`; reuses those already there, so several managers
 * (or a restarted one) may share a registry.
 */
export function runtimeMetrics(registry: Registry): RuntimeMetrics {
  return {
    reconcileTotal: reuse(
      registry,
      RuntimeMetricNames.ReconcileTotal,
      () =>
        new Counter({
          name: RuntimeMetricNames.ReconcileTotal,
          help: 'Total number of reconciliations per controller',
          labelNames: ['controller', 'result'],
          registers: [registry],
        }),
    ),
    reconcileErrors: reuse(
      registry,
      RuntimeMetricNames.ReconcileErrors,
      () =>
        new Counter({
          name: RuntimeMetricNames.ReconcileErrors,
          help: 'Total number of reconciliation errors per controller',
          labelNames: ['controller'],
          registers: [registry],
        }),
    ),
    reconcilePanics: reuse(
      registry,
      RuntimeMetricNames.ReconcilePanics,
      () =>
        new Counter({
          name: RuntimeMetricNames.ReconcilePanics,
          help: 'Total number of reconciliation panics per controller',
          labelNames: ['controller'],
          registers: [registry],
        }),
    ),
    terminalReconcileErrors: reuse(
      registry,
      RuntimeMetricNames.TerminalReconcileErrors,
      () =>
        new Counter({
          name: RuntimeMetricNames.TerminalReconcileErrors,
          help: 'Total number of terminal reconciliation errors per controller',
          labelNames: ['controller'],
          registers: [registry],
        }),
    ),
    reconcileTime: reuse(
      registry,
      RuntimeMetricNames.ReconcileTime,
      () =>
        new Histogram({
          name: RuntimeMetricNames.ReconcileTime,
          help: 'Length of time per reconciliation per controller',
          labelNames: ['controller'],
          buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
          registers: [registry],
        }),
    ),
    activeWorkers: reuse(
      registry,
      RuntimeMetricNames.ActiveWorkers,
      () =>
        new Gauge({
          name: RuntimeMetricNames.ActiveWorkers,
          help: 'Number of currently used workers per controller',
          labelNames: ['controller'],
          registers: [registry],
        }),
    ),
    maxConcurrentReconciles: reuse(
      registry,
      RuntimeMetricNames.MaxConcurrentReconciles,
      () =>
        new Gauge({
          name: RuntimeMetricNames.MaxConcurrentReconciles,
          help: 'Maximum number of concurrent reconciles per controller',
          labelNames: ['controller'],
          registers: [registry],
        }),
    ),
    depth: reuse(
      registry,
      RuntimeMetricNames.WorkQueueDepth,
      () =>
        new Gauge({
          name: RuntimeMetricNames.WorkQueueDepth,
          help: 'Current depth of workqueue',
          labelNames: ['name', 'controller'],
          registers: [registry],
        }),
    ),
    adds: reuse(
      registry,
      RuntimeMetricNames.WorkQueueAdds,
      () =>
        new Counter({
          name: RuntimeMetricNames.WorkQueueAdds,
          help: 'Total number of adds handled by workqueue',
          labelNames: ['name', 'controller'],
          registers: [registry],
        }),
    ),
    retries: reuse(
      registry,
      RuntimeMetricNames.WorkQueueRetries,
      () =>
        new Counter({
          name: RuntimeMetricNames.WorkQueueRetries,
          help: 'Total number of retries handled by workqueue',
          labelNames: ['name', 'controller'],
          registers: [registry],
        }),
    ),
    queueDuration: reuse(
      registry,
      RuntimeMetricNames.WorkQueueQueueDuration,
      () =>
        new Histogram({
          name: RuntimeMetricNames.WorkQueueQueueDuration,
          help: 'How long in seconds an item stays in workqueue before being requested',
          labelNames: ['name', 'controller'],
          buckets: WorkQueueBuckets,
          registers: [registry],
        }),
    ),
    workDuration: reuse(
      registry,
      RuntimeMetricNames.WorkQueueWorkDuration,
      () =>
        new Histogram({
          name: RuntimeMetricNames.WorkQueueWorkDuration,
          help: 'How long in seconds processing an item from workqueue takes',
          labelNames: ['name', 'controller'],
          buckets: WorkQueueBuckets,
          registers: [registry],
        }),
    ),
    inFlight: inFlightGauges(registry),
  };
}

/** The two gauges read from running reconciles at scrape time, sharing one InFlightWork. */
function inFlightGauges(registry: Registry): InFlightWork {
  const existing = registry.getSingleMetric(RuntimeMetricNames.WorkQueueUnfinishedWork) as
    | (Metric & { inFlight?: InFlightWork })
    | undefined;
  if (existing?.inFlight !== undefined) return existing.inFlight;
  const inFlight = new InFlightWork();
  const unfinished = new Gauge({
    name: RuntimeMetricNames.WorkQueueUnfinishedWork,
    help: "How many seconds of work has been done that is in progress and hasn't been observed by work_duration",
    labelNames: ['name', 'controller'],
    registers: [registry],
    collect() {
      for (const w of inFlight.snapshot())
        this.set({ name: w.controller, controller: w.controller }, w.unfinished);
    },
  });
  new Gauge({
    name: RuntimeMetricNames.WorkQueueLongestRunning,
    help: 'How many seconds has the longest running processor for workqueue been running',
    labelNames: ['name', 'controller'],
    registers: [registry],
    collect() {
      for (const w of inFlight.snapshot())
        this.set({ name: w.controller, controller: w.controller }, w.longest);
    },
  });
  Object.assign(unfinished, { inFlight });
  return inFlight;
}

/** The metric named `name` in the registry, or a new one from `create`. */
export function reuse<M extends Metric>(registry: Registry, name: string, create: () => M): M {
  return (registry.getSingleMetric(name) as M | undefined) ?? create();
}

/** One series a scraped gauge reports: its labels and its value. */
export type GaugeSample = readonly [labels: Readonly<Record<string, string>>, value: number];

/**
 * Registers a gauge whose series are all read from `read` when it is scraped, and only then:
 * values that are ages or sums of live state (a pod's wait, a node's age, a pool's cost) are
 * never stale and cost nothing between scrapes, and a series whose object is gone disappears
 * with it. A gauge of that name already in the registry (a manager restarted on it) is
 * replaced, so the live reader answers. `read` yields one sample per label set.
 */
export function scrapedGauge(
  registry: Registry,
  gauge: { readonly name: string; readonly help: string; readonly labelNames: readonly string[] },
  read: () => Iterable<GaugeSample> | Promise<Iterable<GaugeSample>>,
): void {
  registry.removeSingleMetric(gauge.name);
  registry.registerMetric(new ScrapedGauge(gauge, read) as unknown as Metric);
}

/**
 * What `scrapedGauge` registers: a gauge as prom-client's registry reads one (`get()` with its
 * name, help, type and series), whose series are the reader's samples as they come. A
 * prom-client Gauge set from a collect hook hashed every sample's labels into its map on every
 * scrape: 20,000 waiting pods' series took over 100 ms each scrape, in one run of the loop.
 */
class ScrapedGauge {
  readonly type = 'gauge';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly #known: ReadonlySet<string>;
  readonly #read: () => Iterable<GaugeSample> | Promise<Iterable<GaugeSample>>;

  constructor(
    gauge: { readonly name: string; readonly help: string; readonly labelNames: readonly string[] },
    read: () => Iterable<GaugeSample> | Promise<Iterable<GaugeSample>>,
  ) {
    this.name = gauge.name;
    this.help = gauge.help;
    this.labelNames = [...gauge.labelNames];
    this.#known = new Set(gauge.labelNames);
    this.#read = read;
  }

  /** @throws as prom-client's Gauge does, for a label not declared or a value not a number. */
  async get() {
    const values: { labels: Readonly<Record<string, string>>; value: number }[] = [];
    for (const [labels, value] of await this.#read()) {
      for (const key in labels)
        if (!this.#known.has(key))
          throw new Error(
            `Added label "${key}" is not included in initial labelset: ${this.labelNames.join(',')}`,
          );
      if (typeof value !== 'number') throw new TypeError(`Value is not a valid number: ${String(value)}`);
      values.push({ labels, value });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** Nothing is kept between scrapes. */
  reset(): void {}
}
