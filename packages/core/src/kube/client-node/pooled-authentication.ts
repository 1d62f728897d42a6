import { createHash, type Hash } from 'node:crypto';
import type { RequestOptions } from 'node:https';
import type { Cluster, KubeConfig, RequestContext } from '@kubernetes/client-node';

type Dispatcher = NonNullable<ReturnType<RequestContext['getDispatcher']>>;

/** The connection pool of one TLS identity, or none when requests use undici's global one. */
interface Pool {
  readonly identity: string;
  readonly dispatcher: Dispatcher | undefined;
}

/**
 * A KubeConfig's authentication for requests and watches, with one connection pool per TLS
 * identity instead of one per request.
 *
 * client-node 2.0.1's `applySecurityAuthentication` builds a new undici Agent for every request
 * it authenticates, so every request opens its own TLS connection (a handshake, a secure
 * context, OpenSSL buffers) that then idles for seconds before it closes. A controller making
 * hundreds of requests a second kept hundreds of them open at once, several hundred MB of
 * native memory (bench/e2e.ts). This keeps the Agent of the identity the KubeConfig yields now
 * (server, proxy, CA, client certificate and key, TLS options) and hands it to every request
 * while that identity holds, as client-go shares one transport. A changed identity (a rotated
 * client certificate from an exec plugin) gets a new Agent; the old one is dropped, and closes
 * its idle connections as client-node's per-request Agents always did.
 *
 * Credentials that are headers (tokens, basic auth) are applied to every request afresh.
 * `Watch` takes it in place of a KubeConfig: it calls only `getCurrentCluster` and
 * `applySecurityAuthentication`.
 */
export class PooledAuthentication {
  readonly #config: KubeConfig;
  #pool: Pool | undefined;

  constructor(config: KubeConfig) {
    this.#config = config;
  }

  getCurrentCluster(): Cluster | null {
    return this.#config.getCurrentCluster();
  }

  async applySecurityAuthentication(context: RequestContext): Promise<void> {
    const options: RequestOptions = {};
    await this.#config.applyToHTTPSOptions(options);
    const identity = identityOf(this.#config, options);
    const pool = this.#pool;
    if (pool?.identity !== identity) {
      // client-node builds the Agent (proxies and SOCKS included); it becomes the pool.
      await this.#config.applySecurityAuthentication(context);
      this.#pool = { identity, dispatcher: context.getDispatcher() };
      return;
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      if (value !== undefined) context.setHeaderParam(name, String(value));
    }
    if (options.auth) {
      context.setHeaderParam('Authorization', `Basic ${Buffer.from(options.auth).toString('base64')}`);
    }
    if (pool.dispatcher !== undefined) context.setDispatcher(pool.dispatcher);
  }
}

/** A digest of what client-node would build an Agent from, so equal identities share one. */
function identityOf(config: KubeConfig, options: RequestOptions): string {
  const cluster = config.getCurrentCluster();
  const tls = {
    ca: options.ca,
    cert: options.cert,
    key: options.key,
    pfx: options.pfx,
    passphrase: options.passphrase,
    ...(options.rejectUnauthorized === undefined ? {} : { rejectUnauthorized: options.rejectUnauthorized }),
    ...(options.servername === undefined ? {} : { servername: options.servername }),
  };
  // Also validates the combination (e.g. plain http without skipTLSVerify throws, as client-node does).
  const described = config.createDispatcherOptions(cluster, tls);
  const hash = createHash('sha256');
  hash.update(
    JSON.stringify({
      server: cluster?.server,
      type: described.type,
      uri: 'uri' in described ? described.uri : undefined,
      passphrase: tls.passphrase,
      rejectUnauthorized: tls.rejectUnauthorized,
      servername: tls.servername,
    }),
  );
  for (const material of [tls.ca, tls.cert, tls.key, tls.pfx]) feed(hash, material);
  return hash.digest('hex');
}

/** Adds key material (a PEM string, a Buffer, or a list of them) to the digest. */
function feed(hash: Hash, material: unknown): void {
  if (Array.isArray(material)) {
    hash.update(`[${material.length}]`);
    for (const item of material) feed(hash, item);
  } else if (typeof material === 'string' || Buffer.isBuffer(material)) {
    hash.update(`${material.length}:`);
    hash.update(material);
  } else if (typeof material === 'object' && material !== null) {
    // A key or pfx with its own passphrase: { pem | buf, passphrase }.
    const { pem, buf, passphrase } = material as { pem?: unknown; buf?: unknown; passphrase?: unknown };
    feed(hash, pem ?? buf);
    feed(hash, passphrase);
  } else {
    hash.update('-');
  }
}
