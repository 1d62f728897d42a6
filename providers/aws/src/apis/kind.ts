import type { KindDefinition } from '@nodewright/core/apis';
import {
  type EC2NodeClass,
  EC2NodeClassApiVersion,
  EC2NodeClassGroup,
  ec2NodeClassSchema,
} from './ec2nodeclass.js';

/**
 * `karpenter.k8s.aws/v1` EC2NodeClass, the NodeClass this provider contributes to the kind
 * registry: cluster-scoped, status subresource, columns as upstream.
 */
export const ec2NodeClassKind: KindDefinition<EC2NodeClass> = {
  apiVersion: EC2NodeClassApiVersion,
  kind: 'EC2NodeClass',
  namespaced: false,
  schema: ec2NodeClassSchema,
  crd: {
    group: EC2NodeClassGroup,
    version: 'v1',
    plural: 'ec2nodeclasses',
    singular: 'ec2nodeclass',
    shortNames: ['ec2nc', 'ec2ncs'],
    categories: ['karpenter'],
    subresources: { status: true },
    printerColumns: [
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      { name: 'Role', type: 'string', jsonPath: '.spec.role', priority: 1 },
    ],
  },
};
