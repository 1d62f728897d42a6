import type { IsomorphicFetchHttpLibrary, KubeConfig, Watch } from '@kubernetes/client-node';
import type {
  HttpMethod as HttpMethodEnum,
  RequestContext as RequestContextClass,
} from '@kubernetes/client-node/dist/gen/http/http.js';
import type { KubeError } from '../errors.js';
import { errorFromStatus } from '../errors.js';
import { isJsonObject } from '../json.js';
import type { KubeObject } from '../object.js';
import { PooledAuthentication } from './pooled-authentication.js';
import { type QueryParams, queryString } from './resource-path.js';
import { asKubeError, errorForCode } from './response-errors.js';
import type { KubeRequest, KubeResponse, KubeTransport, StreamEvent } from './transport.js';

/**
 * KubeTransport over @kubernetes/client-node 2.x: requests go through its fetch library with
 * the KubeConfig's authentication (tokens, client certificates, exec plugins) and TLS
 * dispatcher, one connection pool shared by every request and watch (see PooledAuthentication);
 * watches use its `Watch`, which aborts a connection idle for 30 s (the caller simply
 * reconnects). client-node is loaded on the first request: importing it costs more than half a
 * second, which code that only uses the in-memory adapter should not pay. Only the modules used
 * are imported, never the package's index, which loads every generated API client (see
 * clientNodeSubsetHooks for the one such import left, inside KubeConfig).
 */
export class ClientNodeTransport implements KubeTransport {
  readonly #config: KubeConfig;
  readonly #auth: PooledAuthentication;
  readonly #userAgent: string;
  #library: Promise<FetchLibrary> | undefined;
  #watch: Watch | undefined;

  constructor(config: KubeConfig, userAgent: string) {
    this.#config = config;
    this.#auth = new PooledAuthentication(config);
    this.#userAgent = userAgent;
  }

  async request(request: KubeRequest): Promise<KubeResponse> {
    try {
      this.#library ??= loadFetchLibrary();
      const { http, HttpMethod, RequestContext } = await this.#library;
      const ctx = new RequestContext(
        `${this.#server()}${request.path}${queryString(request.query)}`,
        HttpMethod[request.method],
      );
      await this.#auth.applySecurityAuthentication(ctx);
      ctx.setHeaderParam('Accept', 'application/json');
      ctx.setHeaderParam('User-Agent', this.#userAgent);
      if (request.body !== undefined) {
        ctx.setHeaderParam('Content-Type', request.contentType ?? 'application/json');
        ctx.setBody(JSON.stringify(request.body));
      }
      if (request.signal !== undefined) ctx.setSignal(request.signal);
      const response = await http.send(ctx).toPromise();
      const text = await response.body.text();
      return { status: response.httpStatusCode, body: parseBody(text) };
    } catch (err) {
      throw asKubeError(err, `${request.method} ${request.path} failed`);
    }
  }

  watch(
    path: string,
    query: QueryParams,
    onEvent: (event: StreamEvent) => void,
    signal: AbortSignal,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let controller: AbortController | undefined;
      let finished = false;
      const finish = (error?: KubeError) => {
        if (finished) return;
        finished = true;
        signal.removeEventListener('abort', onAbort);
        controller?.abort();
        if (error === undefined) resolve();
        else reject(error);
      };
      const onAbort = () => finish();
      if (signal.aborted) {
        finish();
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      // client-node swallows exceptions thrown by this callback, so it must not throw.
      const callback = (type: string, object: unknown) => {
        if (finished) return;
        const event = decodeEvent(type, object);
        if (event === undefined) return;
        if ('error' in event) finish(event.error);
        else onEvent(event);
      };
      const done = (err: unknown) => finish(watchFailure(err, path));
      this.#watcher()
        .then((watcher) => watcher.watch(path, { ...query }, callback, done))
        .then(
          (c) => {
            controller = c;
            if (finished) c.abort();
          },
          (err: unknown) => finish(asKubeError(err, `watch ${path} failed`)),
        );
    });
  }

  async #watcher(): Promise<Watch> {
    if (this.#watch === undefined) {
      const { Watch } = await import('@kubernetes/client-node/dist/watch.js');
      // Watch calls only getCurrentCluster and applySecurityAuthentication, which the pooled
      // authentication provides, so watches share the requests' connection pool.
      this.#watch ??= new Watch(this.#auth as unknown as KubeConfig);
    }
    return this.#watch;
  }

  #server(): string {
    const cluster = this.#config.getCurrentCluster();
    if (cluster === null) throw new Error('the KubeConfig has no current cluster');
    return cluster.server.replace(/\/+$/, '');
  }
}

/** client-node's fetch library and the request types it takes, loaded once per transport. */
interface FetchLibrary {
  readonly http: IsomorphicFetchHttpLibrary;
  readonly HttpMethod: typeof HttpMethodEnum;
  readonly RequestContext: typeof RequestContextClass;
}

async function loadFetchLibrary(): Promise<FetchLibrary> {
  const [{ HttpMethod, RequestContext }, { IsomorphicFetchHttpLibrary }] = await Promise.all([
    import('@kubernetes/client-node/dist/gen/http/http.js'),
    import('@kubernetes/client-node/dist/gen/http/isomorphic-fetch.js'),
  ]);
  return { http: new IsomorphicFetchHttpLibrary(), HttpMethod, RequestContext };
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type Decoded = StreamEvent | { readonly error: KubeError };

function decodeEvent(type: string, object: unknown): Decoded | undefined {
  if (!isJsonObject(object)) return undefined;
  switch (type) {
    case 'ADDED':
    case 'MODIFIED':
    case 'DELETED':
      return { type, object: object as unknown as KubeObject };
    case 'BOOKMARK': {
      const meta = object.metadata;
      const rv = isJsonObject(meta) && typeof meta.resourceVersion === 'string' ? meta.resourceVersion : '';
      return rv === '' ? undefined : { type, resourceVersion: rv };
    }
    case 'ERROR':
      return {
        error: errorFromStatus({
          ...(typeof object.code === 'number' ? { code: object.code } : {}),
          ...(typeof object.reason === 'string' ? { reason: object.reason } : {}),
          ...(typeof object.message === 'string' ? { message: object.message } : {}),
        }),
      };
    default:
      return undefined;
  }
}

/**
 * How a watch connection ended: `undefined` when it merely closed (server timeout, or
 * client-node's idle abort, which it reports as a TimeoutError), else the failure.
 */
function watchFailure(err: unknown, path: string): KubeError | undefined {
  if (err === null || err === undefined) return undefined;
  if (err instanceof Error || err instanceof DOMException) {
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return undefined;
    const code = (err as { statusCode?: unknown }).statusCode;
    if (typeof code === 'number') return errorForCode(code, `watch ${path}: ${err.message}`);
  }
  return asKubeError(err, `watch ${path} broke`);
}
