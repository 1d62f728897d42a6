import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePorts, killOnProcessEnd, type ProcessRegistry } from '@nodewright/conformance/cluster';

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

/** One sample series of a query: its labels and (unix seconds, value) points. */
export interface PromSeries {
  readonly metric: Readonly<Record<string, string>>;
  readonly values: readonly (readonly [number, number])[];
}

interface ApiResponse {
  readonly status: 'success' | 'error';
  readonly error?: string;
  readonly errorType?: string;
  readonly data?: {
    readonly resultType: string;
    readonly result: readonly {
      readonly metric: Record<string, string>;
      readonly value?: [number, string];
      readonly values?: [number, string][];
    }[];
    readonly name?: string;
  };
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

/**
 * A real Prometheus process on a loopback port with a TSDB of its own (admin API on, for
 * snapshots), and its HTTP API: instant and range queries, target health, snapshots. It is
 * SIGKILLed when this process exits or gets SIGINT/SIGTERM.
 */
export class PrometheusProcess {
  readonly url: string;
  readonly #child: ChildProcess;
  readonly exited: Promise<number | null>;
  #exit: number | null | undefined;

  private constructor(url: string, child: ChildProcess, registry: ProcessRegistry | undefined) {
    this.url = url;
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
    const tsdb = spec.tsdbPath ?? join(spec.dir, 'data');
    await mkdir(tsdb, { recursive: true });
    const config = join(spec.dir, 'prometheus.yml');
    await writeFile(config, prometheusConfig(spec.targets, spec.scrapeIntervalSeconds));
    const [port] = await freePorts(1);
    const listen = `127.0.0.1:${port}`;
    const log = createWriteStream(join(spec.dir, 'prometheus.log'));
    const child = spawn(
      spec.binary,
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${tsdb}`,
        // A snapshot read back must keep its samples, however old the run.
        '--storage.tsdb.retention.time=10y',
        `--web.listen-address=${listen}`,
        '--web.enable-admin-api',
        '--log.format=json',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    if (child.pid !== undefined)
      spec.registry?.add({ name: 'prometheus', pid: child.pid, binary: spec.binary });
    const prom = new PrometheusProcess(`http://${listen}`, child, spec.registry);
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      if (prom.#exit !== undefined) {
        throw new Error(
          `prometheus exited (code ${prom.#exit}) before it was ready; see ${spec.dir}/prometheus.log`,
        );
      }
      const ready = await fetch(`${prom.url}/-/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return prom;
      if (Date.now() > deadline) {
        await prom.stop();
        throw new Error(`prometheus not ready within ${readyTimeoutMs} ms; see ${spec.dir}/prometheus.log`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  async #api(
    path: string,
    params: Record<string, string>,
    method: 'GET' | 'POST' = 'GET',
  ): Promise<ApiResponse> {
    const query = new URLSearchParams(params).toString();
    const response = await fetch(`${this.url}${path}${query ? `?${query}` : ''}`, { method });
    return (await response.json()) as ApiResponse;
  }

  /**
   * `/api/v1/query` at `time` (unix seconds; default now).
   * @throws with Prometheus's error when the query fails (a parse error, an unknown function).
   */
  async query(expr: string, time?: number): Promise<PromSeries[]> {
    const body = await this.#api('/api/v1/query', {
      query: expr,
      ...(time === undefined ? {} : { time: String(time) }),
    });
    if (body.status !== 'success' || body.data === undefined) {
      throw new Error(`query ${expr} failed: ${body.errorType ?? ''} ${body.error ?? ''}`);
    }
    if (body.data.resultType === 'scalar') {
      const v = body.data.result as unknown as [number, string];
      return [{ metric: {}, values: [[v[0], Number(v[1])]] }];
    }
    return body.data.result.map((r) => ({
      metric: r.metric,
      values: r.value ? [[r.value[0], Number(r.value[1])]] : [],
    }));
  }

  /** `/api/v1/query_range` from `start` to `end` (unix seconds) every `stepSeconds`. */
  async queryRange(expr: string, start: number, end: number, stepSeconds: number): Promise<PromSeries[]> {
    const body = await this.#api('/api/v1/query_range', {
      query: expr,
      start: String(start),
      end: String(end),
      step: String(stepSeconds),
    });
    if (body.status !== 'success' || body.data === undefined) {
      throw new Error(`range query ${expr} failed: ${body.errorType ?? ''} ${body.error ?? ''}`);
    }
    return body.data.result.map((r) => ({
      metric: r.metric,
      values: (r.values ?? []).map(([t, v]) => [t, Number(v)] as const),
    }));
  }

  /** Every metric name Prometheus holds (`/api/v1/label/__name__/values`). */
  async metricNames(): Promise<string[]> {
    const response = await fetch(`${this.url}/api/v1/label/__name__/values`);
    const body = (await response.json()) as { status: string; data: string[] };
    return body.data;
  }

  /**
   * Takes a TSDB snapshot through the admin API; resolves to its directory (under the TSDB's
   * `snapshots/`), which a later Prometheus opens as its `--storage.tsdb.path`.
   */
  async snapshot(): Promise<string> {
    const body = await this.#api('/api/v1/admin/tsdb/snapshot', {}, 'POST');
    if (body.status !== 'success' || body.data?.name === undefined) {
      throw new Error(`snapshot failed: ${body.error ?? 'no name returned'}`);
    }
    return body.data.name;
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
