import { writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { ClusterConnection } from '@nodewright/conformance/cluster';

/** Which requests a ListHoldProxy holds back. */
export interface ListHold {
  /** The exact path of the list, e.g. `/api/v1/pods`. */
  readonly path: string;
  /** Requests for it (not watches) are answered no sooner than this wall-clock instant (ms). */
  readonly untilMs: number;
}

/** A request the proxy received: when it arrived, and whether a partition swallowed it. */
export interface ProxiedRequest {
  readonly method: string;
  readonly path: string;
  /** Wall-clock instant it reached the proxy (ms). */
  readonly atMs: number;
  readonly partitioned: boolean;
}

/** Requests a partition swallows: matched by method and path (no query). */
export type RequestMatch = (request: { readonly method: string; readonly path: string }) => boolean;

/**
 * A plain-HTTP proxy in front of the API server, for fault tests: it forwards every request with
 * the connection's credentials, streaming both ways (watches stay watches), except that a LIST of
 * `hold.path` — a GET without `watch=true|1` — is forwarded only at `hold.untilMs`. A client
 * pointed at it (`writeKubeconfig`) sees an API server whose list of that kind is slow, as a large
 * or overloaded cluster's is after a restart. Without a hold it forwards everything; `outage`
 * then makes the API server unreachable for a while, as a control-plane upgrade or a network
 * partition does: open connections (watches included) are cut and new ones reset; `partition`
 * swallows only the requests it matches (a Lease's, say), as a partial partition does. Every
 * request is recorded in `requests`, so a test can tell what a client sent, and when.
 */
export class ListHoldProxy {
  readonly #server: Server;
  readonly #connection: ClusterConnection;
  readonly #hold: ListHold | undefined;
  readonly #sockets = new Set<Socket>();
  #downUntilMs = 0;
  #partition: { readonly match: RequestMatch; readonly untilMs: number } | undefined;
  /** Every request received, in arrival order. */
  readonly requests: ProxiedRequest[] = [];
  /** Wall-clock instants at which held lists arrived, and were released. */
  readonly held: { readonly arrivedMs: number; releasedMs?: number }[] = [];

  private constructor(connection: ClusterConnection, hold: ListHold | undefined) {
    this.#connection = connection;
    this.#hold = hold;
    this.#server = createServer((req, res) => this.#handle(req, res));
    this.#server.on('connection', (socket: Socket) => {
      if (Date.now() < this.#downUntilMs) {
        socket.destroy();
        return;
      }
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  static async start(connection: ClusterConnection, hold?: ListHold): Promise<ListHoldProxy> {
    const proxy = new ListHoldProxy(connection, hold);
    await new Promise<void>((resolve) => proxy.#server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  /** Writes a kubeconfig (JSON) whose only cluster is this proxy, without credentials. */
  async writeKubeconfig(path: string): Promise<void> {
    const config = {
      apiVersion: 'v1',
      kind: 'Config',
      // client-node refuses a plain-HTTP server unless told to skip TLS verification.
      clusters: [{ name: 'proxy', cluster: { server: this.url, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'proxy', user: {} }],
      contexts: [{ name: 'proxy', context: { cluster: 'proxy', user: 'proxy' } }],
      'current-context': 'proxy',
    };
    await writeFile(path, JSON.stringify(config));
  }

  /** Cuts every open connection and resets new ones until `untilMs` (wall clock). */
  outage(untilMs: number): void {
    this.#downUntilMs = untilMs;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
  }

  /**
   * Until `untilMs` (wall clock), requests that `match` are never answered: each hangs until then
   * and its connection is cut, as if the network dropped it. Others pass.
   */
  partition(match: RequestMatch, untilMs: number): void {
    this.#partition = { match, untilMs };
  }

  stop(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const method = req.method ?? 'GET';
    const cut = this.#partition;
    const partitioned =
      cut !== undefined && Date.now() < cut.untilMs && cut.match({ method, path: url.pathname });
    this.requests.push({ method, path: url.pathname, atMs: Date.now(), partitioned });
    if (partitioned) {
      setTimeout(() => req.socket.destroy(), Math.max(0, cut.untilMs - Date.now())).unref();
      return;
    }
    const watch = url.searchParams.get('watch');
    const hold = this.#hold;
    const isHeldList =
      hold !== undefined &&
      req.method === 'GET' &&
      url.pathname === hold.path &&
      watch !== 'true' &&
      watch !== '1';
    if (!isHeldList) {
      this.#forward(req, res);
      return;
    }
    const record: { arrivedMs: number; releasedMs?: number } = { arrivedMs: Date.now() };
    this.held.push(record);
    setTimeout(
      () => {
        record.releasedMs = Date.now();
        this.#forward(req, res);
      },
      Math.max(0, hold.untilMs - Date.now()),
    );
  }

  #forward(req: IncomingMessage, res: ServerResponse): void {
    const target = new URL(req.url ?? '/', this.#connection.server);
    const headers = { ...req.headers, host: target.host };
    if (this.#connection.bearerToken) headers.authorization = `Bearer ${this.#connection.bearerToken}`;
    const upstream = httpsRequest(
      target,
      {
        method: req.method ?? 'GET',
        headers,
        ...(this.#connection.ca ? { ca: this.#connection.ca } : {}),
        ...(this.#connection.cert ? { cert: this.#connection.cert, key: this.#connection.key } : {}),
        rejectUnauthorized: !this.#connection.insecureSkipTlsVerify,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  }
}
