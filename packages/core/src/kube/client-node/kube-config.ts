import type { KubeConfig } from '@kubernetes/client-node';

/**
 * A KubeConfig read from a kubeconfig file (YAML or JSON), for callers that do not depend on
 * @kubernetes/client-node themselves. `context` selects a context other than the current one.
 * Asynchronous because client-node is loaded on first use (see ClientNodeTransport).
 */
export async function kubeConfigFromFile(path: string, context?: string): Promise<KubeConfig> {
  const { KubeConfig } = await import('@kubernetes/client-node/dist/config.js');
  const config = new KubeConfig();
  config.loadFromFile(path);
  if (context !== undefined) config.setCurrentContext(context);
  return config;
}

/**
 * The KubeConfig kubectl would use: `$KUBECONFIG`, else `~/.kube/config`, else the in-cluster
 * service account. Reads the environment when called, never at import.
 */
export async function defaultKubeConfig(): Promise<KubeConfig> {
  const { KubeConfig } = await import('@kubernetes/client-node/dist/config.js');
  const config = new KubeConfig();
  config.loadFromDefault();
  return config;
}
