import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';

/** What an HTTPS client needs to reach and authenticate to an API server. */
export interface ClusterConnection {
  server: string;
  /** PEM CA bundle; absent means the system roots. */
  ca?: string;
  /** PEM client certificate and key (both or neither). */
  cert?: string;
  key?: string;
  bearerToken?: string;
  insecureSkipTlsVerify?: boolean;
}

/**
 * What `renderKubeconfig` writes: one context named `name` on `server` (trusting `caPem`),
 * authenticated by a client certificate or by a bearer token (a ServiceAccount's).
 */
export type KubeconfigInput = CertificateKubeconfigInput | TokenKubeconfigInput;

interface KubeconfigTarget {
  /** Context, cluster and user name. */
  readonly name: string;
  readonly server: string;
  readonly caPem: string;
}

/** A kubeconfig whose user authenticates with a client certificate (PEM certificate and key). */
export interface CertificateKubeconfigInput extends KubeconfigTarget {
  readonly certPem: string;
  readonly keyPem: string;
}

/** A kubeconfig whose user authenticates with a bearer token. */
export interface TokenKubeconfigInput extends KubeconfigTarget {
  readonly token: string;
}

const b64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');

/**
 * A self-contained kubeconfig (credentials embedded) with one context, as JSON. JSON is
 * YAML, so kubectl, client-go and @kubernetes/client-node all read it.
 */
export function renderKubeconfig(input: KubeconfigInput): string {
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    'current-context': input.name,
    clusters: [
      {
        name: input.name,
        cluster: { server: input.server, 'certificate-authority-data': b64(input.caPem) },
      },
    ],
    users: [
      {
        name: input.name,
        user:
          'token' in input
            ? { token: input.token }
            : { 'client-certificate-data': b64(input.certPem), 'client-key-data': b64(input.keyPem) },
      },
    ],
    contexts: [{ name: input.name, context: { cluster: input.name, user: input.name } }],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function findNamed(list: unknown, name: string, field: string): Record<string, unknown> {
  const entry = (Array.isArray(list) ? list : []).map(record).find((e) => e.name === name);
  if (!entry) throw new Error(`kubeconfig has no ${field} named ${JSON.stringify(name)}`);
  return record(entry[field]);
}

/**
 * Resolves the current context of a kubeconfig document (already parsed from JSON or YAML)
 * into a connection. `readFile` loads the file references (certificate-authority, etc.),
 * relative to `baseDir` as kubectl does. Exec and auth-provider plugins are not supported.
 */
export function connectionFromKubeconfig(
  config: unknown,
  baseDir: string,
  readFile: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): ClusterConnection {
  const doc = record(config);
  const contextName = doc['current-context'];
  if (typeof contextName !== 'string' || contextName === '') {
    throw new Error('kubeconfig has no current-context');
  }
  const context = findNamed(doc.contexts, contextName, 'context');
  const cluster = findNamed(doc.clusters, String(context.cluster), 'cluster');
  const user = typeof context.user === 'string' ? findNamed(doc.users, context.user, 'user') : {};

  const load = (dataKey: string, fileKey: string, from: Record<string, unknown>): string | undefined => {
    const data = from[dataKey];
    if (typeof data === 'string' && data !== '') return Buffer.from(data, 'base64').toString('utf8');
    const file = from[fileKey];
    if (typeof file === 'string' && file !== '')
      return readFile(isAbsolute(file) ? file : resolve(baseDir, file));
    return undefined;
  };

  const server = cluster.server;
  if (typeof server !== 'string' || server === '')
    throw new Error(`cluster ${String(context.cluster)} has no server`);
  if (user.exec !== undefined || user['auth-provider'] !== undefined) {
    throw new Error(
      `user ${String(context.user)} authenticates with a plugin, which this client does not run`,
    );
  }
  const connection: ClusterConnection = { server };
  const ca = load('certificate-authority-data', 'certificate-authority', cluster);
  if (ca !== undefined) connection.ca = ca;
  if (cluster['insecure-skip-tls-verify'] === true) connection.insecureSkipTlsVerify = true;
  const cert = load('client-certificate-data', 'client-certificate', user);
  const key = load('client-key-data', 'client-key', user);
  if (cert !== undefined && key !== undefined) {
    connection.cert = cert;
    connection.key = key;
  }
  const token = typeof user.token === 'string' ? user.token : undefined;
  const tokenFile = typeof user.tokenFile === 'string' ? user.tokenFile : undefined;
  if (token) connection.bearerToken = token;
  else if (tokenFile) connection.bearerToken = readFile(resolve(baseDir, tokenFile)).trim();
  return connection;
}

/** Where a kubeconfig path's relative file references are resolved from. */
export function kubeconfigBaseDir(path: string): string {
  return dirname(resolve(path));
}
