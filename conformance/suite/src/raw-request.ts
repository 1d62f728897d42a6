import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import type { ClusterConnection } from '../../cluster/src/index.js';

/** A response with its headers, which KubeHttpClient does not expose. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** Parsed when the server says it is JSON, else the text. */
  readonly body: unknown;
  readonly text: string;
}

export interface RawRequestOptions {
  readonly body?: string;
  readonly contentType?: string;
  /** E.g. `application/json;as=Table;v=v1;g=meta.k8s.io` for server-side printing. */
  readonly accept?: string;
  readonly timeoutMs?: number;
}

/**
 * One HTTPS request to the API server with a chosen Accept header, answering headers too
 * (`warning` headers, Table responses). Never throws on HTTP status; rejects on a transport
 * error or after `timeoutMs` (30 s).
 */
export function rawRequest(
  connection: ClusterConnection,
  method: string,
  path: string,
  options: RawRequestOptions = {},
): Promise<RawResponse> {
  const url = new URL(path, connection.server);
  const headers: OutgoingHttpHeaders = { accept: options.accept ?? 'application/json' };
  if (options.body !== undefined) {
    headers['content-type'] = options.contentType ?? 'application/json';
    headers['content-length'] = Buffer.byteLength(options.body);
  }
  if (connection.bearerToken) headers.authorization = `Bearer ${connection.bearerToken}`;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        headers,
        ...(connection.ca === undefined ? {} : { ca: connection.ca }),
        ...(connection.cert === undefined ? {} : { cert: connection.cert, key: connection.key }),
        rejectUnauthorized: connection.insecureSkipTlsVerify !== true,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          if ((res.headers['content-type'] ?? '').includes('json') && text !== '') {
            try {
              body = JSON.parse(text);
            } catch {
              // Keep the text: a truncated body is still worth showing in a failure.
            }
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text });
        });
      },
    );
    const timeoutMs = options.timeoutMs ?? 30_000;
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`request timed out after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * The texts of a response's `warning` headers (`299 - "text"`); Node joins repeated headers
 * with ", ", so one value may hold several.
 */
export function warningsOf(headers: IncomingHttpHeaders): string[] {
  const raw = headers.warning ?? '';
  return [...raw.matchAll(/\d{3} \S+ "((?:[^"\\]|\\.)*)"/g)].map((m) => m[1] ?? '');
}
