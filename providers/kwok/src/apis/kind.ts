import type { KindDefinition } from '@nodewright/core/apis';
import {
  type KWOKNodeClass,
  KWOKNodeClassApiVersion,
  KWOKNodeClassGroup,
  KWOKNodeClassKind,
  KWOKNodeClassVersion,
  kwokNodeClassSchema,
} from './kwoknodeclass.js';

/**
 * `karpenter.kwok.sh/v1alpha1` KWOKNodeClass for the kind registry: cluster-scoped, status
 * subresource, names and short names as Karpenter's KWOK CRD.
 */
export const kwokNodeClassKind: KindDefinition<KWOKNodeClass> = {
  apiVersion: KWOKNodeClassApiVersion,
  kind: KWOKNodeClassKind,
  namespaced: false,
  schema: kwokNodeClassSchema,
  crd: {
    group: KWOKNodeClassGroup,
    version: KWOKNodeClassVersion,
    plural: 'kwoknodeclasses',
    singular: 'kwoknodeclass',
    shortNames: ['kwoknc', 'kwokncs'],
    categories: ['karpenter'],
    subresources: { status: true },
    printerColumns: [
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      { name: 'Delay', type: 'string', jsonPath: '.spec.nodeRegistrationDelay', priority: 1 },
    ],
  },
};
