import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePorts, killOnProcessEnd, type ProcessRegistry } from '@nodewright/conformance/cluster';
import { PrometheusApi } from './prometheus-api.js';

/** How to start one Prometheus scraping the controller. */
export interface PrometheusSpec {
  /** The binary (ensurePrometheus). */
  readonly binary: string;
  /** Holds the config, the TSDB and prometheus.log. */
  readonly dir: string;
  /** `host:port` of each /metrics to scrape; none to only query stored data. */
  readonly targets: readonly string[];
  /** The TSDB to open (a snapshot's copy, to read it back); default `<dir>/data`, created empty. */
  readonly tsdbPath?: string;
  /** Seconds between scrapes; the test's run lasts minutes, so 1-2 s. */
  readonly scrapeIntervalSeconds: number;
  /** Where the running process is recorded, so a later run stops it if this one was killed. */
  readonly registry?: ProcessRegistry;
}

/** The Prometheus config: one job scraping the targets at the interval. */
export function prometheusConfig(targets: readonly string[], intervalSeconds: number): string {
  const global = [
    'global:',
    `  scrape_interval: ${intervalSeconds}s`,
    `  evaluation_interval: ${intervalSeconds}s`,
  ];
  if (targets.length === 0) return [...global, ''].join('\n');
  return [
    ...global,
    'scrape_configs:',
    '  - job_name: nodewright',
    `    scrape_timeout: ${intervalSeconds}s`,
    '    static_configs:',
    `      - targets: [${targets.map((t) => JSON.stringify(t)).join(', ')}]`,
    '',
  ].join('\n');
}

/** A Prometheus about to start: where it listens and stores, and its command-line arguments. */
export interface PreparedPrometheus {
  readonly listen: string;
  readonly tsdb: string;
  readonly args: readonly string[];
}

/** Writes the config and creates the TSDB directory; picks a free loopback port. */
export async function preparePrometheus(spec: Omit<PrometheusSpec, 'binary'>): Promise<PreparedPrometheus> {
  const tsdb = spec.tsdbPath ?? join(spec.dir, 'data');
  await mkdir(tsdb, { recursive: true });
  const config = join(spec.dir, 'prometheus.yml');
  await writeFile(config, prometheusConfig(spec.targets, spec.scrapeIntervalSeconds));
  const [port] = await freePorts(1);
  const listen = `127.0.0.1:${port}`;
  return {
    listen,
    tsdb,
    args: [
      `--config.file=${config}`,
      `--storage.tsdb.path=${tsdb}`,
      // A snapshot read back must keep its samples, however old the run.
      '--storage.tsdb.retention.time=10y',
      `--web.listen-address=${listen}`,
      '--web.enable-admin-api',
      '--log.format=json',
    ],
  };
}

/**
 * A real Prometheus process on a loopback port with a TSDB of its own (admin API on, for
 * snapshots), and its HTTP API. It is SIGKILLed when this process exits or gets SIGINT/SIGTERM.
 */
export class PrometheusProcess extends PrometheusApi {
  readonly #child: ChildProcess;
  readonly exited: Promise<number | null>;
  #exit: number | null | undefined;

  private constructor(url: string, child: ChildProcess, registry: ProcessRegistry | undefined) {
    super(url);
    this.#child = child;
    const detach = killOnProcessEnd(() => {
      if (this.#exit === undefined) child.kill('SIGKILL');
    });
    this.exited = new Promise((resolve) => {
      child.once('exit', (code) => {
        detach();
        if (child.pid !== undefined) registry?.remove(child.pid);
        this.#exit = code;
        resolve(code);
      });
    });
  }

  /** Writes the config, starts Prometheus and resolves once it answers /-/ready. */
  static async start(spec: PrometheusSpec, readyTimeoutMs = 60_000): Promise<PrometheusProcess> {
    const prepared = await preparePrometheus(spec);
    const log = createWriteStream(join(spec.dir, 'prometheus.log'));
    const child = spawn(spec.binary, [...prepared.args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    if (child.pid !== undefined)
      spec.registry?.add({ name: 'prometheus', pid: child.pid, binary: spec.binary });
    const prom = new PrometheusProcess(`http://${prepared.listen}`, child, spec.registry);
    try {
      await prom.awaitReady(
        readyTimeoutMs,
        () => (prom.#exit === undefined ? undefined : `exited (code ${prom.#exit})`),
        `${spec.dir}/prometheus.log`,
      );
    } catch (err) {
      await prom.stop();
      throw err;
    }
    return prom;
  }

  /** SIGTERM (Prometheus flushes its head), SIGKILL after `graceMs`. */
  async stop(graceMs = 20_000): Promise<void> {
    if (this.#exit !== undefined) return;
    this.#child.kill('SIGTERM');
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), graceMs);
    try {
      await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
