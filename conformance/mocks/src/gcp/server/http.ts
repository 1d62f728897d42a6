import { createServer, type Server } from 'node:http';
import { sleep, type Timers } from '@nodewright/core/clock';
import { GceError } from '../compute/errors.js';
import { type RouteDeps, route } from '../compute/routes.js';
import type { GceFaults, InjectedFailure } from '../faults/faults.js';

const Failures: Record<InjectedFailure, GceError> = {
  rateLimit: new GceError(403, 'rateLimitExceeded', 'Rate Limit Exceeded'),
  tooManyRequests: new GceError(
    429,
    'rateLimitExceeded',
    "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute'",
  ),
  backendError: new GceError(
    500,
    'backendError',
    'Internal error. Please try again or contact Google Support.',
  ),
  unavailable: new GceError(503, 'backendError', 'The service is currently unavailable.'),
};

/**
 * One HTTP server for Compute Engine (`/compute/v1/...`) and the Cloud Billing Catalog
 * (`/v1/services/.../skus`), JSON both ways. Auth headers are not checked. Faults and latency
 * are applied before the method runs; errors are GCE's error bodies.
 */
export function createGceServer(
  deps: RouteDeps & { readonly faults: GceFaults; readonly timers: Timers },
): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(body));
      };
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://mock');
        let body: Record<string, unknown> = {};
        try {
          const text = Buffer.concat(chunks).toString('utf8');
          if (text !== '') body = JSON.parse(text) as Record<string, unknown>;
        } catch {
          reply(
            400,
            new GceError(400, 'parseError', 'This API does not support parsing form-encoded input.').body(),
          );
          return;
        }
        const matched = route(deps, {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          body,
        });
        if (matched === undefined) {
          reply(
            404,
            new GceError(404, 'notFound', `The requested URL ${url.pathname} was not found.`).body(),
          );
          return;
        }
        const delay = deps.faults.latencyOf(matched.method);
        if (delay > 0) await sleep(deps.timers, delay);
        const failure = deps.faults.check(matched.method);
        if (failure !== undefined) {
          const error = Failures[failure];
          reply(error.status, error.body());
          return;
        }
        try {
          reply(200, await matched.run());
        } catch (error) {
          if (error instanceof GceError) reply(error.status, error.body());
          else reply(500, new GceError(500, 'backendError', String(error)).body());
        }
      })();
    });
  });
}
