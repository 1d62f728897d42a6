import { pino } from 'pino';
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpEndpoint, serveHttp } from './http-server.js';
import { type CheckResult, healthRoutes, metricsRoutes } from './routes.js';

const logger = pino({ level: 'silent' });
const open: HttpEndpoint[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

async function serve(routes: Parameters<typeof serveHttp>[0]['routes']): Promise<string> {
  const endpoint = await serveHttp({ port: 0, host: '127.0.0.1', routes, logger });
  open.push(endpoint);
  expect(endpoint.port).toBeGreaterThan(0);
  return `http://127.0.0.1:${endpoint.port}`;
}

describe('health and metrics servers', () => {
  it('/readyz is 503 with the reason until ready, /healthz always 200', async () => {
    let ready: CheckResult = { ok: false, reason: 'caches not synced: karpenter.sh/v1/NodePool' };
    const url = await serve(healthRoutes(() => ready));
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const before = await fetch(`${url}/readyz`);
    expect(before.status).toBe(503);
    expect(await before.text()).toContain('caches not synced: karpenter.sh/v1/NodePool');
    ready = { ok: true };
    expect((await fetch(`${url}/readyz?verbose`)).status).toBe(200);
    expect((await fetch(`${url}/nope`)).status).toBe(404);
    expect((await fetch(`${url}/healthz`, { method: 'POST' })).status).toBe(405);
  });

  it('/metrics serves the registry with default process metrics', async () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    new Counter({ name: 'karpenter_test_total', help: 'test', registers: [registry] }).inc(3);
    const url = await serve(metricsRoutes(registry));
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const body = await res.text();
    expect(body).toContain('karpenter_test_total 3');
    expect(body).toMatch(/^process_resident_memory_bytes \d+/m);
  });

  it('/metrics serves what registry.metrics() writes, escaped label values included', async () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const pods = new Gauge({
      name: 'karpenter_test_pods',
      help: 'a "help"\\n',
      labelNames: ['pod'],
      registers: [registry],
    });
    for (let i = 0; i < 50; i++) pods.set({ pod: `p-${i}\n"x"` }, i);
    const url = await serve(metricsRoutes(registry));
    const body = await (await fetch(`${url}/metrics`)).text();
    // Default metrics that read the clock (CPU seconds) differ between two calls; compare the rest.
    const stable = (text: string) =>
      text
        .split('\n')
        .filter((line) => !line.startsWith('process_') && !line.startsWith('nodejs_'))
        .join('\n');
    expect(stable(body)).toBe(stable(await registry.metrics()));
    expect(body).toContain('karpenter_test_pods{pod="p-7\\n\\"x\\""} 7');
  });

  it('a failing handler answers 500, and a taken port is refused naming it', async () => {
    const url = await serve({
      '/boom': async () => {
        throw new Error('boom');
      },
    });
    expect((await fetch(`${url}/boom`)).status).toBe(500);
    const port = Number(new URL(url).port);
    await expect(serveHttp({ port, host: '127.0.0.1', routes: {}, logger })).rejects.toThrow(
      `cannot listen on port ${port}: EADDRINUSE`,
    );
  });
});
