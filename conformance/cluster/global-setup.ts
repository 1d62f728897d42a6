/**
 * Vitest globalSetup: gives the test run one real control plane, chosen by selectClusterTarget.
 *
 * - NODEWRIGHT_KUBECONFIG set: that cluster is used as is; nothing is built or started.
 * - NODEWRIGHT_CLUSTER=kind: startKindCluster() builds kind and its node image locally
 *   (deploy/kind, cached; starts Docker where none runs), creates a one-node cluster, taints
 *   its node and installs kwok; teardown deletes the cluster.
 * - Otherwise (NODEWRIGHT_CLUSTER unset or `binary`): build/build.sh builds the binaries if the
 *   cache lacks them (minutes, once), then startCluster() runs etcd, kube-apiserver,
 *   kube-controller-manager, kube-scheduler and kwok on loopback, and teardown stops them.
 *
 * Tests read the cluster with `inject('nodewrightCluster')`; NODEWRIGHT_KUBECONFIG is also
 * set for the workers and anything they spawn. NODEWRIGHT_CLUSTER_KEEP=1 keeps the cluster
 * directory (logs, certs; for kind the kubeconfigs) after the run.
 */
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { selectClusterTarget } from './src/cluster-target.js';
import { loadKubeconfig } from './src/load-kubeconfig.js';
import { startClusterTarget } from './src/start-target.js';

/** What tests receive about the cluster they run against. */
export interface ProvidedCluster {
  kubeconfigPath: string;
  server: string;
  /** True when the user supplied the cluster through NODEWRIGHT_KUBECONFIG. */
  external: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    nodewrightCluster: ProvidedCluster;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const target = selectClusterTarget(process.env);
  process.stderr.write(`[cluster] target: ${target.reason}\n`);
  if (target.kind === 'external') {
    const { server } = await loadKubeconfig(target.kubeconfigPath);
    project.provide('nodewrightCluster', { kubeconfigPath: target.kubeconfigPath, server, external: true });
    return async () => {};
  }
  const keepDir = process.env.NODEWRIGHT_CLUSTER_KEEP === '1';
  const cluster = await startClusterTarget(target.kind, { keepDir });
  process.env.NODEWRIGHT_KUBECONFIG = cluster.kubeconfigPath;
  project.provide('nodewrightCluster', {
    kubeconfigPath: cluster.kubeconfigPath,
    server: cluster.server,
    external: false,
  });
  return async () => {
    delete process.env.NODEWRIGHT_KUBECONFIG;
    await cluster.stop();
  };
}
