import type { KindDefinition } from '@nodewright/core/apis';
import {
  type AKSNodeClass,
  AKSNodeClassApiVersion,
  AKSNodeClassGroup,
  AKSNodeClassKind,
  AKSNodeClassVersion,
  aksNodeClassSchema,
} from './aksnodeclass.js';

/**
 * `karpenter.azure.com/v1beta1` AKSNodeClass for the kind registry: cluster-scoped, status
 * subresource, names and short names as upstream's CRD.
 */
export const aksNodeClassKind: KindDefinition<AKSNodeClass> = {
  apiVersion: AKSNodeClassApiVersion,
  kind: AKSNodeClassKind,
  namespaced: false,
  schema: aksNodeClassSchema,
  crd: {
    group: AKSNodeClassGroup,
    version: AKSNodeClassVersion,
    plural: 'aksnodeclasses',
    singular: 'aksnodeclass',
    shortNames: ['aksnc', 'aksncs'],
    categories: ['karpenter'],
    subresources: { status: true },
    printerColumns: [
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      { name: 'ImageFamily', type: 'string', jsonPath: '.spec.imageFamily', priority: 1 },
    ],
  },
};
