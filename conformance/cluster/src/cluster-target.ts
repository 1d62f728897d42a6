/** The clusters the integration suite can start itself; an existing one comes through a kubeconfig. */
export const CLUSTER_TARGETS = ['binary', 'kind'] as const;
export type StartedClusterTarget = (typeof CLUSTER_TARGETS)[number];

/** The variable naming which cluster to start. */
export const CLUSTER_TARGET_VARIABLE = 'NODEWRIGHT_CLUSTER';
/** The variable naming an existing cluster to use instead; it wins over NODEWRIGHT_CLUSTER. */
export const KUBECONFIG_VARIABLE = 'NODEWRIGHT_KUBECONFIG';

/**
 * Which cluster a test run uses. `reason` says why, including why a requested target was
 * not taken (an existing kubeconfig wins over NODEWRIGHT_CLUSTER).
 */
export type ClusterTarget =
  | { kind: 'external'; kubeconfigPath: string; reason: string }
  | { kind: StartedClusterTarget; reason: string };

const isStartedTarget = (value: string): value is StartedClusterTarget =>
  (CLUSTER_TARGETS as readonly string[]).includes(value);

/**
 * Picks the cluster from the environment. Pure: reads only the two variables.
 * NODEWRIGHT_KUBECONFIG set -> that cluster; else NODEWRIGHT_CLUSTER (`binary` when unset or
 * empty). An unknown NODEWRIGHT_CLUSTER is an error even when a kubeconfig is supplied, since
 * a typo there would otherwise go unnoticed until the kubeconfig is removed.
 */
export function selectClusterTarget(env: Readonly<Record<string, string | undefined>>): ClusterTarget {
  const requested = (env[CLUSTER_TARGET_VARIABLE] ?? '').trim();
  if (requested !== '' && !isStartedTarget(requested)) {
    throw new Error(
      `${CLUSTER_TARGET_VARIABLE}=${JSON.stringify(requested)} is not a cluster target; ` +
        `allowed values: ${CLUSTER_TARGETS.join(', ')} (default binary). ` +
        `To use an existing cluster set ${KUBECONFIG_VARIABLE}=/path/to/kubeconfig instead.`,
    );
  }
  const kubeconfigPath = env[KUBECONFIG_VARIABLE];
  if (kubeconfigPath) {
    return {
      kind: 'external',
      kubeconfigPath,
      reason:
        requested === ''
          ? `${KUBECONFIG_VARIABLE} is set: using that cluster as is`
          : `${KUBECONFIG_VARIABLE} is set, so ${CLUSTER_TARGET_VARIABLE}=${requested} is ignored: ` +
            'using that cluster as is',
    };
  }
  if (requested === 'kind') {
    return {
      kind: 'kind',
      reason: `${CLUSTER_TARGET_VARIABLE}=kind: a kind cluster from the locally built node image (deploy/kind)`,
    };
  }
  return {
    kind: 'binary',
    reason:
      requested === ''
        ? `${CLUSTER_TARGET_VARIABLE} unset: the binary cluster (default)`
        : `${CLUSTER_TARGET_VARIABLE}=binary: the binary cluster`,
  };
}
