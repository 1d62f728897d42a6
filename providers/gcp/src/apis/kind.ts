import type { KindDefinition } from '@nodewright/core/apis';
import {
  type GCENodeClass,
  GCENodeClassApiVersion,
  GCENodeClassGroup,
  GCENodeClassKind,
  gceNodeClassSchema,
} from './gcenodeclass.js';

/**
 * `karpenter.k8s.gcp/v1alpha1` GCENodeClass, the NodeClass this provider contributes to the
 * kind registry: cluster-scoped, status subresource.
 */
export const gceNodeClassKind: KindDefinition<GCENodeClass> = {
  apiVersion: GCENodeClassApiVersion,
  kind: GCENodeClassKind,
  namespaced: false,
  schema: gceNodeClassSchema,
  crd: {
    group: GCENodeClassGroup,
    version: 'v1alpha1',
    plural: 'gcenodeclasses',
    singular: 'gcenodeclass',
    shortNames: ['gcenc', 'gcencs'],
    categories: ['karpenter'],
    subresources: { status: true },
    printerColumns: [
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      { name: 'ServiceAccount', type: 'string', jsonPath: '.spec.serviceAccount', priority: 1 },
    ],
  },
};
