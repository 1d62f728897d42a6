import { type StartClusterOptions, startCluster } from './cluster.js';
import type { StartedClusterTarget } from './cluster-target.js';
import type { ComponentName } from './components.js';
import { type StartKindClusterOptions, startKindCluster } from './kind-cluster.js';
import type { LaunchedCluster } from './launched-cluster.js';

/** What every target's start takes. */
export interface StartTargetOptions {
  /** Keep the cluster's directory (logs, certs; for kind the kubeconfigs) after stop(). */
  readonly keepDir?: boolean;
  /**
   * Flags added to the binary cluster's components (e.g. kube-controller-manager's client
   * QPS). The kind target's components keep kind's configuration: they are not applied there.
   */
  readonly componentArgs?: Partial<Record<ComponentName, readonly string[]>>;
}

/** The launchers behind each target; tests inject their own. */
export interface TargetStarters {
  readonly binary: (options: StartClusterOptions) => Promise<LaunchedCluster>;
  readonly kind: (options: StartKindClusterOptions) => Promise<LaunchedCluster>;
}

const DefaultStarters: TargetStarters = {
  binary: startCluster,
  kind: (options) => startKindCluster(options),
};

/**
 * Starts the cluster a selected target names (see selectClusterTarget), with the settings both
 * the globalSetup and the e2e files use: kwok manages only Nodes annotated
 * `kwok.x-k8s.io/node=fake`, as the kind target's kwok Deployment does.
 */
export function startClusterTarget(
  kind: StartedClusterTarget,
  options: StartTargetOptions = {},
  starters: TargetStarters = DefaultStarters,
): Promise<LaunchedCluster> {
  const keep = options.keepDir ? { keepDir: true } : {};
  if (kind === 'kind') return starters.kind(keep);
  const extra = options.componentArgs === undefined ? {} : { extraArgs: options.componentArgs };
  return starters.binary({ kwokManages: 'annotated', ...keep, ...extra });
}
