import { describeClusterE2E } from '@nodewright/conformance';
import { inject } from 'vitest';
import { inClusterLauncher } from '../install/src/in-cluster-launcher.js';
import { kwokE2ETarget } from './src/providers/kwok-e2e-target.js';
import { clusterE2EOptions } from './src/providers/report-dir.js';

// The cluster end-to-end suite for the KWOK provider with the controller installed as users
// install it: a kind cluster of its own, the controller image loaded into it, the CRD chart and
// the chart installed with helm, and every controller replica of the suite a Pod of the chart's
// Deployment under its ServiceAccount (install/src/in-cluster-launcher.ts); failover kills the
// leader's container. On a cluster the run was given (NODEWRIGHT_KUBECONFIG) the controller runs
// as child processes of the built CLI instead: nothing can be loaded into a cluster of unknown
// kind. The other providers' e2e files run their controllers as processes on the binary cluster.
const provided = inject('nodewrightCluster');

describeClusterE2E(
  kwokE2ETarget(),
  provided.external
    ? clusterE2EOptions(provided)
    : { ...clusterE2EOptions(provided), clusterTarget: 'kind', launcher: inClusterLauncher() },
);
