import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { isGone, isInternalError, isKubeError } from '../errors.js';
import { ClientNodeTransport } from './client-node-transport.js';
import { UnreachableError } from './response-errors.js';
import type { StreamEvent } from './transport.js';

type Route = (req: IncomingMessage, body: string, res: ServerResponse) => void;

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A plain-HTTP stand-in for the API server (client-node allows http with skipTLSVerify). */
async function serve(route: Route): Promise<{ transport: ClientNodeTransport; seen: IncomingMessage[] }> {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => route(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    transport: new ClientNodeTransport(kubeConfig(`http://127.0.0.1:${port}`), 'nodewright-test'),
    seen,
  };
}

function kubeConfig(server: string): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify: true }],
    users: [{ name: 'u', token: 'secret-token' }],
    contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
    currentContext: 'ctx',
  });
  return config;
}

const line = (type: string, object: object) => `${JSON.stringify({ type, object })}\n`;

describe('ClientNodeTransport.request', () => {
  it('sends JSON with the KubeConfig credentials and reads JSON or text answers', async () => {
    let received = '';
    const { transport, seen } = await serve((req, body, res) => {
      received = body;
      if (req.url?.startsWith('/text')) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found\n');
        return;
      }
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
    });
    const created = await transport.request({
      method: 'PATCH',
      path: '/api/v1/namespaces/default/pods/p',
      query: { fieldManager: 'ctrl', force: true },
      body: { metadata: { labels: { a: null } } },
      contentType: 'application/merge-patch+json',
    });
    expect(created).toEqual({ status: 201, body: { ok: true } });
    expect(seen[0]?.method).toBe('PATCH');
    expect(seen[0]?.url).toBe('/api/v1/namespaces/default/pods/p?fieldManager=ctrl&force=true');
    expect(seen[0]?.headers.authorization).toBe('Bearer secret-token');
    expect(seen[0]?.headers['content-type']).toBe('application/merge-patch+json');
    expect(seen[0]?.headers['user-agent']).toBe('nodewright-test');
    expect(JSON.parse(received)).toEqual({ metadata: { labels: { a: null } } });
    expect(await transport.request({ method: 'GET', path: '/text' })).toEqual({
      status: 404,
      body: '404 page not found\n',
    });
  });

  it('turns an unreachable server into an UnreachableError', async () => {
    const { transport } = await serve(() => {});
    const closed = servers.pop() as Server;
    await new Promise((resolve) => closed.close(resolve));
    const err = await transport.request({ method: 'GET', path: '/api/v1/pods' }).catch((e) => e);
    expect(err).toBeInstanceOf(UnreachableError);
    expect(isKubeError(err)).toBe(true);
    expect(err.message).toMatch(/^GET \/api\/v1\/pods failed: /);
  });
});

describe('ClientNodeTransport.watch', () => {
  it('streams events and bookmarks in order and resolves when the server closes', async () => {
    const { transport, seen } = await serve((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(line('ADDED', { metadata: { name: 'a', resourceVersion: '2' } }));
      res.write(line('BOOKMARK', { metadata: { resourceVersion: '3' } }));
      res.end(line('DELETED', { metadata: { name: 'a', resourceVersion: '4' } }));
    });
    const events: StreamEvent[] = [];
    await transport.watch(
      '/api/v1/pods',
      { resourceVersion: '1', allowWatchBookmarks: true, timeoutSeconds: 25 },
      (event) => events.push(event),
      new AbortController().signal,
    );
    expect(events).toEqual([
      { type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: '2' } } },
      { type: 'BOOKMARK', resourceVersion: '3' },
      { type: 'DELETED', object: { metadata: { name: 'a', resourceVersion: '4' } } },
    ]);
    const url = new URL(seen[0]?.url ?? '', 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      watch: 'true',
      resourceVersion: '1',
      allowWatchBookmarks: 'true',
      timeoutSeconds: '25',
    });
  });

  it('rejects with the Status of an ERROR event', async () => {
    const { transport } = await serve((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(
        line('ERROR', {
          kind: 'Status',
          code: 410,
          reason: 'Expired',
          message: 'too old resource version: 1 (225)',
        }),
      );
    });
    const err = await transport
      .watch('/api/v1/pods', { resourceVersion: '1' }, () => {}, new AbortController().signal)
      .catch((e) => e);
    expect(isGone(err)).toBe(true);
    expect(err.message).toBe('too old resource version: 1 (225)');
  });

  it('rejects with the HTTP code of a refused connection', async () => {
    const { transport } = await serve((_req, _body, res) => {
      res.writeHead(500).end('{"kind":"Status","code":500}');
    });
    const err = await transport
      .watch('/api/v1/pods', {}, () => {}, new AbortController().signal)
      .catch((e) => e);
    expect(isInternalError(err)).toBe(true);
  });

  it('resolves, and delivers nothing more, when aborted', async () => {
    const { transport } = await serve((_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(line('ADDED', { metadata: { name: 'a', resourceVersion: '2' } }));
    });
    const controller = new AbortController();
    const events: StreamEvent[] = [];
    const done = transport.watch(
      '/api/v1/pods',
      {},
      (event) => {
        events.push(event);
        controller.abort();
      },
      controller.signal,
    );
    await expect(done).resolves.toBeUndefined();
    expect(events).toHaveLength(1);
  });
});
