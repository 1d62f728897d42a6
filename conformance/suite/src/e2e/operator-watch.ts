import { performance } from 'node:perf_hooks';
import type { ClusterPort } from '@nodewright/core/kube';
import { Leases } from '@nodewright/core/kube';
import type { ControllerProcess } from './controller-process.js';

/** The event-loop delay a controller exports (`nodewright_event_loop_delay_seconds`), in seconds. */
export interface EventLoopDelay {
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** Reads `nodewright_event_loop_delay_seconds{quantile}` from a /metrics text; undefined when absent. */
export function eventLoopDelayOf(metricsText: string): EventLoopDelay | undefined {
  const value = (quantile: string): number | undefined => {
    const prefix = `nodewright_event_loop_delay_seconds{quantile="${quantile}"} `;
    const line = metricsText.split('\n').find((l) => l.startsWith(prefix));
    const v = line === undefined ? Number.NaN : Number(line.slice(prefix.length));
    return Number.isFinite(v) ? v : undefined;
  };
  const [p50, p99, max] = [value('0.5'), value('0.99'), value('1')];
  return p50 === undefined || p99 === undefined || max === undefined ? undefined : { p50, p99, max };
}

/** The longest run of consecutive `false` in `answered`. */
export function longestFailureRun(answered: readonly boolean[]): number {
  let longest = 0;
  let run = 0;
  for (const ok of answered) {
    run = ok ? 0 : run + 1;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** What a kubelet probing the controller, a standby reading its Lease, and a scraper saw. */
export interface OperatorWatchFigures {
  /** Probe requests made, `/healthz` and `/readyz` each once per interval. */
  readonly probes: number;
  /** Probes not answered 200 within the timeout. */
  readonly probeFailures: number;
  /** Per path, the longest run of failed probes: a kubelet restarts the container at 3 (its default failureThreshold). */
  readonly maxConsecutiveProbeFailures: number;
  readonly probeMaxMs: number;
  readonly probeP99Ms: number;
  readonly leaseReads: number;
  /** Every distinct `holderIdentity` read: one, the controller's, when leadership was never lost. */
  readonly holders: readonly string[];
  /** The worst age of `renewTime` when read (this machine's clock against the controller's, the same clock). */
  readonly maxRenewAgeMs: number;
  readonly scrapes: number;
  /** The controller's exported event-loop delay at the last scrape (since its start). */
  readonly eventLoop?: EventLoopDelay;
  /** The highest p99 any scrape read. */
  readonly eventLoopP99MaxSeconds?: number;
}

/** Where and how often the watch looks. */
export interface OperatorWatchOptions {
  readonly lease: { readonly namespace: string; readonly name: string };
  /** Default 1 s: denser than a kubelet's default period (10 s), to see more. */
  readonly probeIntervalMs?: number;
  /** Default 1 s: a kubelet's default timeoutSeconds. */
  readonly probeTimeoutMs?: number;
  readonly scrapeIntervalMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/**
 * Watches one running controller the way its surroundings would while a test loads it: probes
 * its health endpoints as a kubelet does, reads its Lease as a standby does, and scrapes its
 * event-loop delay from /metrics. Start it when the controller leads; `stop()` gives the figures.
 */
export class OperatorWatch {
  readonly #controller: ControllerProcess;
  readonly #cluster: ClusterPort;
  readonly #ports: { readonly health: number; readonly metrics: number };
  readonly #options: Required<OperatorWatchOptions>;
  readonly #answered = new Map<string, boolean[]>();
  readonly #latencies: number[] = [];
  readonly #holders = new Set<string>();
  #leaseReads = 0;
  #maxRenewAgeMs = 0;
  #scrapes = 0;
  #eventLoop: EventLoopDelay | undefined;
  #p99Max: number | undefined;
  #running = true;
  readonly #loops: Promise<void>[];

  private constructor(
    controller: ControllerProcess,
    cluster: ClusterPort,
    ports: { readonly health: number; readonly metrics: number },
    options: OperatorWatchOptions,
  ) {
    this.#controller = controller;
    this.#cluster = cluster;
    this.#ports = ports;
    this.#options = { probeIntervalMs: 1000, probeTimeoutMs: 1000, scrapeIntervalMs: 5000, ...options };
    this.#loops = [
      this.#every(this.#options.probeIntervalMs, () => this.#probe()),
      this.#every(1000, () => this.#readLease()),
      this.#every(this.#options.scrapeIntervalMs, () => this.#scrape()),
    ];
  }

  /**
   * Starts watching. The ports are read from the controller's log first, once: its in-memory
   * log keeps only the latest entries, and a busy controller soon pushes those lines out.
   */
  static async start(
    controller: ControllerProcess,
    cluster: ClusterPort,
    options: OperatorWatchOptions,
  ): Promise<OperatorWatch> {
    const ports = { health: await controller.port('health'), metrics: await controller.port('metrics') };
    return new OperatorWatch(controller, cluster, ports, options);
  }

  /** Stops watching (after one last scrape) and returns what was seen. */
  async stop(): Promise<OperatorWatchFigures> {
    this.#running = false;
    await Promise.all(this.#loops);
    await this.#scrape().catch(() => undefined);
    const sorted = [...this.#latencies].sort((a, b) => a - b);
    const answered = [...this.#answered.values()];
    return {
      probes: answered.reduce((n, a) => n + a.length, 0),
      probeFailures: answered.reduce((n, a) => n + a.filter((ok) => !ok).length, 0),
      maxConsecutiveProbeFailures: Math.max(0, ...answered.map(longestFailureRun)),
      probeMaxMs: sorted.at(-1) ?? 0,
      probeP99Ms: percentile(sorted, 99),
      leaseReads: this.#leaseReads,
      holders: [...this.#holders],
      maxRenewAgeMs: this.#maxRenewAgeMs,
      scrapes: this.#scrapes,
      ...(this.#eventLoop === undefined ? {} : { eventLoop: this.#eventLoop }),
      ...(this.#p99Max === undefined ? {} : { eventLoopP99MaxSeconds: this.#p99Max }),
    };
  }

  // Ticks on a fixed schedule from the start, so a slow round does not thin out the samples.
  async #every(intervalMs: number, round: () => Promise<void>): Promise<void> {
    const start = performance.now();
    for (let i = 1; this.#running; i++) {
      // A round that throws (the controller gone mid-request) is a missed sample, not a crash.
      await round().catch(() => undefined);
      const wait = start + i * intervalMs - performance.now();
      if (wait > 0) await sleep(wait);
    }
  }

  async #probe(): Promise<void> {
    if (this.#controller.exit) return;
    const port = this.#ports.health;
    await Promise.all(
      ['/healthz', '/readyz'].map(async (path) => {
        const began = performance.now();
        const ok = await fetch(`http://127.0.0.1:${port}${path}`, {
          signal: AbortSignal.timeout(this.#options.probeTimeoutMs),
        }).then(
          async (r) => {
            await r.arrayBuffer();
            return r.status === 200;
          },
          () => false,
        );
        this.#latencies.push(performance.now() - began);
        const list = this.#answered.get(path) ?? [];
        list.push(ok);
        this.#answered.set(path, list);
      }),
    );
  }

  async #readLease(): Promise<void> {
    const lease = await this.#cluster.get(Leases, this.#options.lease).catch(() => undefined);
    const spec = lease?.spec;
    if (spec === undefined) return;
    this.#leaseReads++;
    if (spec.holderIdentity !== undefined && spec.holderIdentity !== '')
      this.#holders.add(spec.holderIdentity);
    if (spec.renewTime !== undefined) {
      const age = Date.now() - Date.parse(spec.renewTime);
      if (Number.isFinite(age)) this.#maxRenewAgeMs = Math.max(this.#maxRenewAgeMs, age);
    }
  }

  async #scrape(): Promise<void> {
    if (this.#controller.exit) return;
    const response = await fetch(`http://127.0.0.1:${this.#ports.metrics}/metrics`).catch(() => undefined);
    if (response?.status !== 200) return;
    const body = await response.text();
    this.#scrapes++;
    const delay = eventLoopDelayOf(body);
    if (delay === undefined) return;
    this.#eventLoop = delay;
    this.#p99Max = Math.max(this.#p99Max ?? 0, delay.p99);
  }
}
