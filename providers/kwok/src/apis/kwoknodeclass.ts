import { conditionsSchema, duration, objectMetaSchema } from '@nodewright/core/apis';
import { z } from 'zod';

/** API group of the KWOK provider's NodeClass, as Karpenter's KWOK provider names it. */
export const KWOKNodeClassGroup = 'karpenter.kwok.sh';
export const KWOKNodeClassVersion = 'v1alpha1';
export const KWOKNodeClassApiVersion = `${KWOKNodeClassGroup}/${KWOKNodeClassVersion}`;
export const KWOKNodeClassKind = 'KWOKNodeClass';

/** `spec` of a KWOKNodeClass. Fault injection is a provider setting, not part of the NodeClass. */
export const kwokNodeClassSpecSchema = z
  .object({
    nodeRegistrationDelay: duration()
      .optional()
      .describe(
        'How long after a launch the Node appears in the cluster, modelling instance start-up time. Unset: at once.',
      ),
  })
  .describe('How KWOK nodes of this class are launched.');
export type KWOKNodeClassSpec = z.output<typeof kwokNodeClassSpecSchema>;

/** `status` of a KWOKNodeClass, written by the `kwoknodeclass.status` controller. */
export const kwokNodeClassStatusSchema = z
  .object({
    conditions: conditionsSchema().describe('Ready: the class can launch nodes.').optional(),
  })
  .describe('The observed state of the KWOKNodeClass.');
export type KWOKNodeClassStatus = z.output<typeof kwokNodeClassStatusSchema>;

/**
 * A `karpenter.kwok.sh/v1alpha1` KWOKNodeClass: the NodeClass of the KWOK provider, whose nodes
 * are Node objects kwok keeps Ready. Cluster-scoped, as upstream's.
 */
export const kwokNodeClassSchema = z
  .strictObject({
    apiVersion: z.literal(KWOKNodeClassApiVersion),
    kind: z.literal(KWOKNodeClassKind),
    metadata: objectMetaSchema,
    spec: kwokNodeClassSpecSchema.default({}),
    status: kwokNodeClassStatusSchema.optional(),
  })
  .describe('A KWOKNodeClass: how the KWOK provider launches its fake nodes.');
export type KWOKNodeClass = z.output<typeof kwokNodeClassSchema>;
export type KWOKNodeClassInput = z.input<typeof kwokNodeClassSchema>;
