import {
  CLUSTER_TARGET_VARIABLE,
  type ClusterTarget,
  KUBECONFIG_VARIABLE,
  selectClusterTarget,
} from '@nodewright/conformance/cluster';

/**
 * The cluster one e2e file runs on, chosen as the globalSetup chooses its own
 * (selectClusterTarget): the user's cluster when one is supplied, else a fresh one of the
 * NODEWRIGHT_CLUSTER target (`binary` by default, or `kind`). Pure.
 *
 * The supplied cluster is `externalKubeconfig`, never `env.NODEWRIGHT_KUBECONFIG`: inside a
 * test worker that variable names the globalSetup's shared cluster (it sets it for the
 * workers), where an e2e file must not run, since its controller would act on the pending pods
 * of every other file. Test files pass the user's one from `inject('nodewrightCluster')`.
 */
export function e2eClusterTarget(
  externalKubeconfig: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): ClusterTarget {
  return selectClusterTarget({
    [CLUSTER_TARGET_VARIABLE]: env[CLUSTER_TARGET_VARIABLE],
    [KUBECONFIG_VARIABLE]: externalKubeconfig,
  });
}
