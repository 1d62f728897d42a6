import type { Registry } from 'prom-client';
import { type Defer, deferToEventLoop } from '../../clock/slices.js';

/** An HTTP answer, built without touching node:http so handlers test as plain functions. */
export interface HttpAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** Answers a GET of one path. */
export type RouteHandler = () => Promise<HttpAnswer>;

/** Path -> handler; paths are matched exactly (query strings ignored). */
export type Routes = Readonly<Record<string, RouteHandler>>;

/** Whether a check passes, and why not when it does not. */
export type CheckResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const text = (status: number, body: string): HttpAnswer => ({
  status,
  contentType: 'text/plain; charset=utf-8',
  body,
});

/**
 * The health endpoints, as controller-runtime serves them: `/healthz` is 200 while the process
 * can answer at all; `/readyz` is 200 once `ready()` passes (caches synced) and 503 with the
 * reason before.
 */
export function healthRoutes(ready: () => CheckResult): Routes {
  return {
    '/healthz': async () => text(200, 'ok\n'),
    '/readyz': async () => {
      const result = ready();
      return result.ok ? text(200, 'ok\n') : text(503, `not ready: ${result.reason}\n`);
    },
  };
}

/**
 * The registry in the Prometheus text format, as `registry.metrics()` writes it, with a turn of the
 * event loop (`defer`) before each metric. prom-client formats every series of every metric in
 * one run of microtasks; at a fleet's worth of pod and node series that held the loop for over
 * a second a scrape, and Lease renewals and probes waited behind it.
 */
export async function metricsText(registry: Registry, defer: Defer = deferToEventLoop): Promise<string> {
  const parts: string[] = [];
  for (const metric of registry.getMetricsAsArray()) {
    await defer();
    parts.push(await registry.getSingleMetricAsString(metric.name));
  }
  return `${parts.join('\n\n')}\n`;
}

/** `/metrics`: the registry in the Prometheus text format, a metric at a time. */
export function metricsRoutes(registry: Registry): Routes {
  return {
    '/metrics': async () => ({
      status: 200,
      contentType: registry.contentType,
      body: await metricsText(registry),
    }),
  };
}
