/**
 * Where the controller can find a cluster when no `--kubeconfig` is given, as facts the caller
 * reads from the process (so the decision below stays pure).
 */
export interface KubeConfigSources {
  /** `$KUBECONFIG`, unset or empty meaning none. */
  readonly kubeconfigEnv: string | undefined;
  /** `~/.kube/config`, spelled out for the message. */
  readonly homeConfigPath: string;
  readonly homeConfigExists: boolean;
  /** `$KUBERNETES_SERVICE_HOST` is set: the process runs in a pod. */
  readonly serviceHostSet: boolean;
  /** The pod's service-account token file exists. */
  readonly serviceAccountTokenExists: boolean;
}

/** The service-account token a pod gets mounted; client-node reads the same path in-cluster. */
export const ServiceAccountTokenPath = '/var/run/secrets/kubernetes.io/serviceaccount/token';

/**
 * Why no cluster can be reached, or undefined when some source exists. Without this check
 * client-node falls back to an empty config pointing at http://localhost and fails with a TLS
 * message that names none of the places an operator would look.
 */
export function missingKubeConfigReason(sources: KubeConfigSources): string | undefined {
  if (sources.kubeconfigEnv !== undefined && sources.kubeconfigEnv !== '') return undefined;
  if (sources.homeConfigExists) return undefined;
  if (sources.serviceHostSet && sources.serviceAccountTokenExists) return undefined;
  const inCluster = sources.serviceHostSet
    ? `not in a pod (KUBERNETES_SERVICE_HOST is set but ${ServiceAccountTokenPath} is missing)`
    : 'not in a pod (KUBERNETES_SERVICE_HOST is unset)';
  return `no cluster to talk to: no --kubeconfig given, $KUBECONFIG is unset, ${sources.homeConfigPath} does not exist, and ${inCluster}; pass --kubeconfig FILE or set KUBECONFIG`;
}
