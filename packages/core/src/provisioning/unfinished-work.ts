import type { Registry } from 'prom-client';
import { MetricNames } from '../metrics/names.js';
import { scrapedGauge } from '../operator/runtime/metrics.js';

/** The solve under way of one scheduling controller, read when scraped. */
export interface UnfinishedSolve {
  /** The `controller` label: the controller whose solve it is. */
  readonly controller: string;
  /** Seconds the solve under way has run; 0 between solves. */
  readonly seconds: number;
}

/**
 * Registers `karpenter_scheduler_unfinished_work_seconds{controller}`: how long the scheduling
 * simulation under way has run, which `karpenter_scheduler_scheduling_duration_seconds` observes
 * only once it ends; a solve stuck for minutes shows here while it runs. Computed from `read` at
 * scrape time.
 */
export function registerSchedulerUnfinishedWork(registry: Registry, read: () => UnfinishedSolve): void {
  scrapedGauge(
    registry,
    {
      name: MetricNames.SchedulerUnfinishedWork,
      help: "How many seconds of work has been done that is in progress and hasn't been observed by scheduling_duration_seconds.",
      labelNames: ['controller'],
    },
    () => {
      const { controller, seconds } = read();
      return [[{ controller }, seconds]];
    },
  );
}
