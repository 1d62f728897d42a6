import { conditionsSchema, type KindDefinition, objectMetaSchema, stableHash } from '@nodewright/core/apis';
import { type ResourceType, resourceTypeOf } from '@nodewright/core/kube';
import { z } from 'zod';

/** The NodeClass's API group and version: replace `acme.example.com` with a domain you own. */
export const NodeClassGroup = 'acme.example.com';
export const NodeClassVersion = 'v1alpha1';
export const NodeClassApiVersion = `${NodeClassGroup}/${NodeClassVersion}`;
export const NodeClassKindName = 'AcmeNodeClass';

/**
 * `spec` of the NodeClass: what a launch needs from the user beyond the NodePool. Add your
 * cloud's fields here (image, subnets, security groups, ...); the CRD follows the schema
 * (`UPDATE_CRDS=1 npm test` rewrites crds/).
 */
export const nodeClassSpecSchema = z
  .object({
    image: z
      .string()
      .min(1)
      .default('node-image-1')
      .describe('The image instances boot; changing it drifts the nodes launched from this class.'),
  })
  .describe('How instances of this class are launched.');

/** `status`, written by the provider's NodeClass status controller. */
export const nodeClassStatusSchema = z
  .object({
    conditions: conditionsSchema().describe('Ready: the class can launch instances.').optional(),
  })
  .describe('The observed state of the NodeClass.');

/** The provider's NodeClass, cluster-scoped as Karpenter's NodeClasses are. */
export const nodeClassSchema = z
  .strictObject({
    apiVersion: z.literal(NodeClassApiVersion),
    kind: z.literal(NodeClassKindName),
    metadata: objectMetaSchema,
    spec: nodeClassSpecSchema.default({ image: 'node-image-1' }),
    status: nodeClassStatusSchema.optional(),
  })
  .describe('The NodeClass of the acme provider: how it launches instances.');
export type NodeClass = z.output<typeof nodeClassSchema>;

/** The NodeClass for the kind registry: its CRD, validation and printer columns. */
export const nodeClassKind: KindDefinition<NodeClass> = {
  apiVersion: NodeClassApiVersion,
  kind: NodeClassKindName,
  namespaced: false,
  schema: nodeClassSchema,
  crd: {
    group: NodeClassGroup,
    version: NodeClassVersion,
    plural: 'acmenodeclasses',
    singular: 'acmenodeclass',
    categories: ['karpenter'],
    subresources: { status: true },
    printerColumns: [
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  },
};

/** The cluster-port type of NodeClass objects. */
export const NodeClasses: ResourceType<NodeClass> = resourceTypeOf<NodeClass>(nodeClassKind);

/**
 * The static-drift hash of a NodeClass: its spec. An instance records it at launch; a NodeClaim
 * whose instance carries another hash than its NodeClass now has is drifted.
 */
export function nodeClassHash(nodeClass: Pick<NodeClass, 'spec'>): string {
  return stableHash({ spec: nodeClass.spec });
}
