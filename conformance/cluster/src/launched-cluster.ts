import type { ClusterConnection } from './kubeconfig.js';

/** What a test run needs from any launcher; startCluster's handle has these fields too. */
export interface LaunchedCluster {
  /** A self-contained JSON kubeconfig with admin credentials. */
  kubeconfigPath: string;
  server: string;
  connection: ClusterConnection;
  /** The kind cluster's name (`kind load docker-image --name`), on the kind target only. */
  readonly kindName?: string;
  /** Stop exactly once; later calls return the same promise. */
  stop(): Promise<void>;
}
