import { fileURLToPath } from 'node:url';
import { describeClusterE2E } from '@nodewright/conformance';
import { e2eTarget } from './e2e-target.js';

// The cluster end-to-end suite: this package's own controller binary (dist/bin.js, so build
// first) on a real control plane the suite starts, with the mock cloud behind it and the
// conformance kubelet harness turning its instances into Nodes. NODEWRIGHT_KUBECONFIG runs it
// against a cluster of yours instead.
describeClusterE2E(e2eTarget, {
  binPath: fileURLToPath(new URL('../dist/bin.js', import.meta.url)),
  controllerSubcommand: null,
  report: { dir: 'reports' },
  ...(process.env.NODEWRIGHT_KUBECONFIG ? { externalKubeconfig: process.env.NODEWRIGHT_KUBECONFIG } : {}),
});
