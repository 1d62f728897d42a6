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
