import { inject } from 'vitest';
import { describeClusterE2E } from './src/e2e/index.js';
import { gcpE2ETarget } from './src/providers/gcp-e2e-target.js';
import { repositoryE2EOptions } from './src/providers/report-dir.js';

// The cluster end-to-end suite for the GCP provider against the Compute Engine mock started in
// this process: the built `nodewright controller --provider gcp --set endpoint=<mock> ...` talks
// to it with the real @google-cloud/compute clients, and the kubelet harness registers a Node for
// each running VM. Needs `pnpm build`.
const provided = inject('nodewrightCluster');

describeClusterE2E(gcpE2ETarget(), {
  ...repositoryE2EOptions(),
  ...(provided.external ? { externalKubeconfig: provided.kubeconfigPath } : {}),
  ...(process.env.NODEWRIGHT_CLUSTER_KEEP === '1' ? { keep: true } : {}),
});
