import type { ClusterPort } from '@nodewright/core/kube';
import type { ClusterTarget } from './cluster-target.js';

/**
 * A cluster opened for reading: only the port's read calls, so nothing built on it can write.
 * `name` is the context it was opened with, for messages and object sources.
 */
export interface LiveCluster {
  readonly name: string;
  /** The API server's URL, for "cannot reach" messages. */
  readonly server: string;
  readonly get: ClusterPort['get'];
  readonly list: ClusterPort['list'];
}

/** Opens the cluster a target names. Throws ClusterAccessError when it cannot. */
export type ClusterConnector = (target: ClusterTarget) => Promise<LiveCluster>;

/**
 * A cluster that cannot be read as asked (no kubeconfig, unknown context, unreachable server,
 * refused credentials, a missing permission): the message is the whole story, printed as is
 * with exit status 1, never with a stack.
 */
export class ClusterAccessError extends Error {
  override readonly name = 'ClusterAccessError';
}
