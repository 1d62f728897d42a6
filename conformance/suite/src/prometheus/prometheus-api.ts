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

/**
 * Prometheus's HTTP API at `url`: instant and range queries, metric names, TSDB snapshots. What
 * the tests read, whether Prometheus runs as a process or in a container.
 */
export class PrometheusApi {
  readonly url: string;

  constructor(url: string) {
    this.url = url;
  }

  /** Resolves once `/-/ready` answers, or rejects when `failed()` names a reason or the time is up. */
  protected async awaitReady(
    timeoutMs: number,
    failed: () => string | undefined,
    where: string,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const why = failed();
      if (why !== undefined) throw new Error(`prometheus ${why} before it was ready; see ${where}`);
      const ready = await fetch(`${this.url}/-/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return;
      if (Date.now() > deadline) throw new Error(`prometheus not ready within ${timeoutMs} ms; see ${where}`);
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
}
