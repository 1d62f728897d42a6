import type { Registry } from 'prom-client';
import { MetricsText } from './metrics-text.js';

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
 * `/metrics`: the registry in the Prometheus text format, as `registry.metrics()` writes it,
 * without holding the event loop for a whole scrape (MetricsText).
 */
export function metricsRoutes(registry: Registry): Routes {
  const exposition = new MetricsText();
  return {
    '/metrics': async () => ({
      status: 200,
      contentType: registry.contentType,
      body: await exposition.render(registry),
    }),
  };
}
