import { KWOKNodeClasses, kubeReservedMilliCpu, kwokNodeClassKind } from '@nodewright/kwok';
import type { ClusterE2ETarget } from '../e2e/target.js';

/** The KWOK provider as the cluster end-to-end suite drives it: no cloud, a Node per claim. */
export function kwokE2ETarget(name = 'kwok'): ClusterE2ETarget {
  return {
    name,
    provider: 'kwok',
    nodeClassKinds: [kwokNodeClassKind],
    nodeClassType: KWOKNodeClasses,
    nodeClass: (nodeClass) => ({
      apiVersion: 'karpenter.kwok.sh/v1alpha1',
      kind: 'KWOKNodeClass',
      metadata: { name: nodeClass },
      spec: {},
    }),
    nodeClassRef: (nodeClass) => ({ group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name: nodeClass }),
    singleType: {
      requirements: [
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['c-4x-amd64-linux'] },
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
      ],
      allocatableMilliCpu: 4000 - kubeReservedMilliCpu(4),
    },
  };
}
