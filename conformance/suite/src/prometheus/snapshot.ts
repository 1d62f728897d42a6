import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProcessRegistry } from '@nodewright/conformance/cluster';
import type { DashboardPanel } from './dashboards.js';
import type { RenderedPanel } from './panel-report.js';
import type { PrometheusApi, PromSeries } from './prometheus-api.js';
import { type PrometheusRuntime, startPrometheus } from './start-prometheus.js';

/** The time range of a run, kept beside its snapshot (unix seconds). */
export interface SnapshotRun {
  readonly start: number;
  readonly end: number;
  readonly scrapeIntervalSeconds: number;
}

/**
 * Takes a TSDB snapshot of `prom` (whose TSDB is `tsdbPath`) and copies it to `dest/tsdb`, with
 * the run's range in `dest/run.json`; a previous snapshot in `dest` is replaced.
 */
export async function saveSnapshot(
  prom: PrometheusApi,
  tsdbPath: string,
  dest: string,
  run: SnapshotRun,
): Promise<void> {
  const name = await prom.snapshot();
  await rm(dest, { recursive: true, force: true });
  await cp(join(tsdbPath, 'snapshots', name), join(dest, 'tsdb'), { recursive: true });
  await writeFile(join(dest, 'run.json'), `${JSON.stringify(run, null, 2)}\n`);
}

/** Every panel's queries over `[start, end]`, a point per `step` seconds, in panel order. */
export async function queryPanels(
  prom: PrometheusApi,
  panels: readonly DashboardPanel[],
  start: number,
  end: number,
  step: number,
): Promise<RenderedPanel[]> {
  const rendered: RenderedPanel[] = [];
  for (const panel of panels) {
    const series: PromSeries[][] = [];
    for (const q of panel.queries) series.push(await prom.queryRange(q.expr, start, end, step));
    rendered.push({ panel, series });
  }
  return rendered;
}

/**
 * Reads a snapshot saveSnapshot left: opens a copy of it in a Prometheus of its own (no
 * scraping; the copy, because Prometheus writes into the TSDB it opens) and evaluates every
 * panel over the run's range.
 */
export async function readSnapshotPanels(
  runtime: PrometheusRuntime,
  snapshotDir: string,
  panels: readonly DashboardPanel[],
  workDir: string,
  registry?: ProcessRegistry,
): Promise<{ readonly run: SnapshotRun; readonly rendered: RenderedPanel[] }> {
  const run = JSON.parse(await readFile(join(snapshotDir, 'run.json'), 'utf8')) as SnapshotRun;
  const dir = await mkdtemp(join(workDir, 'snapshot-read-'));
  await cp(join(snapshotDir, 'tsdb'), join(dir, 'tsdb'), { recursive: true });
  const prom = await startPrometheus(runtime, {
    dir,
    targets: [],
    tsdbPath: join(dir, 'tsdb'),
    scrapeIntervalSeconds: run.scrapeIntervalSeconds,
    ...(registry === undefined ? {} : { registry }),
  });
  try {
    const step = Math.max(run.scrapeIntervalSeconds, Math.ceil((run.end - run.start) / 400));
    return { run, rendered: await queryPanels(prom, panels, run.start, run.end, step) };
  } finally {
    await prom.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
