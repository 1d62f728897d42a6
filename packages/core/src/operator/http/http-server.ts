import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { HttpAnswer, Routes } from './routes.js';

/** Where and what to serve. */
export interface HttpServerOptions {
  /** 0 picks any free port; the bound one is `HttpEndpoint.port`. */
  readonly port: number;
  /** Default all interfaces (a pod's probes and Prometheus reach it from outside). */
  readonly host?: string;
  readonly routes: Routes;
  readonly logger: Logger;
}

/** A listening server. */
export interface HttpEndpoint {
  /** The port actually bound. */
  readonly port: number;
  /** Stops accepting connections and closes idle ones; resolves when the server is closed. */
  close(): Promise<void>;
}

/**
 * Serves GET (and HEAD) of the given routes over node:http; anything else is 404 or 405.
 * Resolves once listening; rejects (e.g. EADDRINUSE) naming the port when it cannot bind.
 */
export async function serveHttp(options: HttpServerOptions): Promise<HttpEndpoint> {
  const server = createServer((req, res) => void answer(options, req, res));
  await listen(server, options.port, options.host);
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err === undefined ? resolve() : reject(err)));
        server.closeIdleConnections();
      }),
  };
}

function listen(server: Server, port: number, host: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      reject(new Error(`cannot listen on port ${port}: ${err.code ?? err.message}`, { cause: err }));
    };
    server.once('error', onError);
    server.listen({ port, ...(host === undefined ? {} : { host }) }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

async function answer(options: HttpServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const handler = options.routes[path];
  let result: HttpAnswer;
  if (handler === undefined) {
    result = { status: 404, contentType: 'text/plain; charset=utf-8', body: `no route ${path}\n` };
  } else if (req.method !== 'GET' && req.method !== 'HEAD') {
    result = { status: 405, contentType: 'text/plain; charset=utf-8', body: `${req.method} not allowed\n` };
  } else {
    try {
      result = await handler();
    } catch (err) {
      options.logger.error({ err, path }, 'http handler failed');
      result = { status: 500, contentType: 'text/plain; charset=utf-8', body: 'internal error\n' };
    }
  }
  res.writeHead(result.status, {
    'content-type': result.contentType,
    'content-length': Buffer.byteLength(result.body),
  });
  res.end(req.method === 'HEAD' ? undefined : result.body);
}
