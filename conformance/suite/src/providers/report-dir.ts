import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ClusterE2EOptions } from '../e2e/describe-cluster-e2e.js';
import { readExampleNodePools } from '../e2e/example-nodepools.js';

/** This repository's root: the in-repo suites pass its paths as options, as any provider would its own. */
const RepoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Where the in-repo suites write their clause reports (`reports/` is git-ignored). */
export const ConformanceReportDir = join(RepoRoot, 'reports', 'conformance');

/** The e2e options of this repository: its built CLI, its example NodePools, its report folder. */
export function repositoryE2EOptions(): ClusterE2EOptions {
  return {
    binPath: join(RepoRoot, 'packages/cli/dist/bin.js'),
    exampleNodePools: () => readExampleNodePools(RepoRoot),
    report: { dir: ConformanceReportDir },
  };
}

/** What an in-repo e2e file knows of the cluster vitest's globalSetup chose for the run. */
export interface ChosenCluster {
  readonly kubeconfigPath: string;
  /** True when the user supplied the cluster (NODEWRIGHT_KUBECONFIG): the suite runs on it. */
  readonly external: boolean;
}

/**
 * The options every in-repo `describeClusterE2E` file passes: this repository's paths, the
 * user's cluster when one was given, and `keep` (work folder left behind) when
 * `NODEWRIGHT_CLUSTER_KEEP=1`, read when called so no file reads the environment on import.
 */
export function clusterE2EOptions(
  cluster: ChosenCluster,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ClusterE2EOptions {
  return {
    ...repositoryE2EOptions(),
    ...(cluster.external ? { externalKubeconfig: cluster.kubeconfigPath } : {}),
    ...(env.NODEWRIGHT_CLUSTER_KEEP === '1' ? { keep: true } : {}),
  };
}
