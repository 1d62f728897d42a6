import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeHttpClient, probeHealth } from './kube-http.js';

let server: Server;
let base: string;
const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      if (req.url === '/healthz') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      } else if (req.url === '/sick') {
        res.writeHead(500).end('no');
      } else {
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ echo: body }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('KubeHttpClient', () => {
  it('sends JSON with the content type asked for and a bearer token, and parses JSON replies', async () => {
    const client = new KubeHttpClient({ server: base, bearerToken: 't0k' });
    const res = await client.request<{ echo: string }>('PATCH', '/apis/x?fieldManager=m', {
      body: { a: 1 },
      contentType: 'application/merge-patch+json',
    });
    client.close();
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body.echo)).toEqual({ a: 1 });
    const request = seen.at(-1)!;
    expect(request.method).toBe('PATCH');
    expect(request.url).toBe('/apis/x?fieldManager=m');
    expect(request.headers['content-type']).toBe('application/merge-patch+json');
    expect(request.headers.authorization).toBe('Bearer t0k');
  });

  it('returns non-JSON bodies as text without throwing on error statuses', async () => {
    const client = new KubeHttpClient({ server: base });
    const res = await client.get('/sick');
    client.close();
    expect(res.status).toBe(500);
    expect(res.body).toBe('no');
  });
});

describe('probeHealth', () => {
  it('is true for 2xx, false for errors and refused connections', async () => {
    expect(await probeHealth(`${base}/healthz`, 'none', { server: base })).toBe(true);
    expect(await probeHealth(`${base}/sick`, 'none', { server: base })).toBe(false);
    expect(await probeHealth('http://127.0.0.1:1/healthz', 'none', { server: base })).toBe(false);
  });
});
