import { describeClusterE2E } from '@nodewright/conformance';
import { KWOKNodeClasses, kubeReservedMilliCpu, kwokNodeClassKind } from '@nodewright/kwok';
import { inject } from 'vitest';
import { clusterE2EOptions } from './src/providers/report-dir.js';

// The cluster end-to-end suite for the KWOK provider. It starts its own control plane (the
// shared globalSetup one serves other files in parallel), unless the run was given a cluster
// through NODEWRIGHT_KUBECONFIG. Needs `pnpm build` first: it runs the built CLI.
const provided = inject('nodewrightCluster');

describeClusterE2E(
  {
    name: 'kwok',
    provider: 'kwok',
    nodeClassKinds: [kwokNodeClassKind],
    nodeClassType: KWOKNodeClasses,
    nodeClass: (name) => ({
      apiVersion: 'karpenter.kwok.sh/v1alpha1',
      kind: 'KWOKNodeClass',
      metadata: { name },
      spec: {},
    }),
    nodeClassRef: (name) => ({ group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name }),
    singleType: {
      requirements: [
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['c-4x-amd64-linux'] },
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
      ],
      allocatableMilliCpu: 4000 - kubeReservedMilliCpu(4),
    },
  },
  clusterE2EOptions(provided),
);
