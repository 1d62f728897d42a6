import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { request as httpRequest } from 'node:http';
import { Agent, request as httpsRequest } from 'node:https';
import type { ClusterConnection } from './kubeconfig.js';

/** A response with its body parsed as JSON when the server says it is JSON. */
export interface KubeResponse<T = unknown> {
  status: number;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Defaults to application/json; use application/merge-patch+json etc. for PATCH. */
  contentType?: string;
  timeoutMs?: number;
}

/**
 * A deliberately small Kubernetes REST client over node:https: enough for the cluster
 * launcher's readiness checks and smoke tests, before @kubernetes/client-node is wired in.
 * It never throws on HTTP status; callers check `status`.
 */
export class KubeHttpClient {
  readonly #connection: ClusterConnection;
  readonly #agent: Agent;

  constructor(connection: ClusterConnection) {
    this.#connection = connection;
    this.#agent = new Agent({
      keepAlive: true,
      ...(connection.ca === undefined ? {} : { ca: connection.ca }),
      ...(connection.cert === undefined ? {} : { cert: connection.cert, key: connection.key }),
      rejectUnauthorized: connection.insecureSkipTlsVerify !== true,
    });
  }

  get server(): string {
    return this.#connection.server;
  }

  request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<KubeResponse<T>> {
    const url = new URL(path, this.#connection.server);
    const headers: OutgoingHttpHeaders = { accept: 'application/json' };
    let payload: string | undefined;
    if (options.body !== undefined) {
      payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] = options.contentType ?? 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
    }
    if (this.#connection.bearerToken) headers.authorization = `Bearer ${this.#connection.bearerToken}`;
    return send<T>(
      url.protocol === 'https:'
        ? (cb) => httpsRequest(url, { method, headers, agent: this.#agent }, cb)
        : (cb) => httpRequest(url, { method, headers }, cb),
      payload,
      options.timeoutMs ?? 30_000,
    );
  }

  get<T = unknown>(path: string): Promise<KubeResponse<T>> {
    return this.request<T>('GET', path);
  }

  post<T = unknown>(path: string, body: unknown): Promise<KubeResponse<T>> {
    return this.request<T>('POST', path, { body });
  }

  delete<T = unknown>(path: string): Promise<KubeResponse<T>> {
    return this.request<T>('DELETE', path);
  }

  /** Closes pooled connections; the client is unusable afterwards. */
  close(): void {
    this.#agent.destroy();
  }
}

type Starter = (onResponse: (res: IncomingMessage) => void) => ClientRequest;

function send<T>(start: Starter, payload: string | undefined, timeoutMs: number): Promise<KubeResponse<T>> {
  return new Promise((resolve, reject) => {
    const req = start((res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const isJson = (res.headers['content-type'] ?? '').includes('json');
        let body: unknown = text;
        if (isJson && text !== '') {
          try {
            body = JSON.parse(text);
          } catch {
            // Keep the raw text: a truncated body is still worth showing in a failure.
          }
        }
        resolve({ status: res.statusCode ?? 0, body: body as T, text });
      });
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`request timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * GETs a health URL once: resolves true on 2xx, false on any other status or connection
 * error (the component is not up yet). `tls` picks the credentials: the cluster's client
 * certificate, none with verification off (components' self-signed serving certs), or plain HTTP.
 */
export async function probeHealth(
  url: string,
  tls: 'client-cert' | 'insecure' | 'none',
  connection: ClusterConnection,
): Promise<boolean> {
  const client = new KubeHttpClient(
    tls === 'client-cert' ? { ...connection, server: url } : { server: url, insecureSkipTlsVerify: true },
  );
  try {
    const res = await client.request('GET', url, { timeoutMs: 5_000 });
    return res.status >= 200 && res.status < 300;
  } catch {
    return false;
  } finally {
    client.close();
  }
}
