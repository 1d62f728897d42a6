import type { KubeObject } from '../object.js';
import type { QueryParams } from './resource-path.js';

/** One HTTP request to the API server. `body` is sent as JSON. */
export interface KubeRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path from the server root, e.g. `/api/v1/namespaces/default/pods`. */
  readonly path: string;
  readonly query?: QueryParams;
  readonly body?: unknown;
  /** Content type of the body; `application/json` when unset. */
  readonly contentType?: string;
  readonly signal?: AbortSignal;
}

/** The server's answer: HTTP code and body (parsed JSON, or the raw text when it is not JSON). */
export interface KubeResponse {
  readonly status: number;
  readonly body: unknown;
}

/** One event of a watch connection, decoded. ERROR events end the connection instead. */
export type StreamEvent =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: KubeObject }
  | { readonly type: 'BOOKMARK'; readonly resourceVersion: string };

/**
 * What the adapter needs from HTTP. The real one rides on @kubernetes/client-node (auth, TLS
 * and proxies from the KubeConfig); tests substitute a scripted one.
 */
export interface KubeTransport {
  /** Sends a request; resolves with any HTTP answer, rejects only when there was none. */
  request(request: KubeRequest): Promise<KubeResponse>;
  /**
   * Opens one watch connection (`watch=true` is added) and hands each event to `onEvent` in
   * order. Resolves when the connection ends without error (server timeout, idle reconnect,
   * abort through `signal`); rejects with a KubeError when it is refused, breaks, or carries
   * an ERROR event (e.g. 410 Expired).
   */
  watch(
    path: string,
    query: QueryParams,
    onEvent: (event: StreamEvent) => void,
    signal: AbortSignal,
  ): Promise<void>;
}
