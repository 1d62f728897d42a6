import { KubeConfig } from '@kubernetes/client-node';

/**
 * A KubeConfig read from a kubeconfig file (YAML or JSON), for callers that do not depend on
 * @kubernetes/client-node themselves. `context` selects a context other than the current one.
 */
export function kubeConfigFromFile(path: string, context?: string): KubeConfig {
  const config = new KubeConfig();
  config.loadFromFile(path);
  if (context !== undefined) config.setCurrentContext(context);
  return config;
}

/**
 * The KubeConfig kubectl would use: `$KUBECONFIG`, else `~/.kube/config`, else the in-cluster
 * service account. Reads the environment when called, never at import.
 */
export function defaultKubeConfig(): KubeConfig {
  const config = new KubeConfig();
  config.loadFromDefault();
  return config;
}
