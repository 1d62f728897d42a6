import { z } from 'zod';
import { withCel, withRules } from '../common/cel.js';
import { conditionsSchema } from '../common/condition.js';
import { duration, durationOrNever } from '../common/duration.js';
import { objectMetaSchema } from '../common/metadata.js';
import { dateTime, resourceList } from '../common/primitives.js';
import { nodeClassRefSchema } from './nodeclassref.js';
import { requirementsSchema } from './requirement.js';
import { StartupTaintRule, taintsSchema } from './taint.js';

export const NodeClaimApiVersion = 'karpenter.sh/v1';

/** `spec` of a NodeClaim: the template's spec plus the resources to fit. Immutable. */
export const nodeClaimSpecSchema = withCel(
  withRules(
    z
      .strictObject({
        taints: taintsSchema.optional().describe('Taints the node is created with.'),
        startupTaints: taintsSchema
          .optional()
          .describe('Taints the node starts with that something on the node removes once it is ready.'),
        requirements: requirementsSchema('NodeClaim').describe(
          'Constraints the launched instance must satisfy.',
        ),
        resources: z
          .strictObject({
            requests: resourceList().describe('The least resources the node must offer.').optional(),
          })
          .describe('The resources the NodeClaim must fit.')
          .optional(),
        nodeClassRef: nodeClassRefSchema,
        expireAfter: durationOrNever()
          .default('720h')
          .describe('How long after creation the node is replaced; Never keeps it indefinitely.'),
        terminationGracePeriod: duration()
          .optional()
          .describe(
            'How long draining may take before pods are deleted regardless of disruption protection.',
          ),
      })
      .describe('What the NodeClaim asks for.'),
    [StartupTaintRule],
  ),
  [{ rule: 'self == oldSelf', message: 'spec is immutable' }],
);
export type NodeClaimSpec = z.output<typeof nodeClaimSpecSchema>;

/** `status` of a NodeClaim, written by the controller. */
export const nodeClaimStatusSchema = z
  .object({
    nodeName: z.string().describe('Name of the Node that registered for this NodeClaim.').optional(),
    providerID: z.string().describe('Provider ID of the instance.').optional(),
    imageID: z.string().describe('Image the instance runs.').optional(),
    capacity: resourceList().describe('Estimated full capacity of the node.').optional(),
    allocatable: resourceList().describe('Estimated allocatable capacity of the node.').optional(),
    conditions: conditionsSchema({ lenient: true })
      .describe('Ready = Launched, Registered and Initialized; also Drifted, Consolidatable, Drained, ...')
      .optional(),
    lastPodEventTime: dateTime()
      .describe('When a pod was last scheduled to or removed from the node.')
      .optional(),
  })
  .describe('The observed state of the NodeClaim.');
export type NodeClaimStatus = z.output<typeof nodeClaimStatusSchema>;

/**
 * A `karpenter.sh/v1` NodeClaim: one node nodewright launched or is launching. Parsing applies
 * the API server's defaults and rules; `validateNodeClaimUpdate` adds immutability.
 */
export const nodeClaimSchema = z
  .strictObject({
    apiVersion: z.literal(NodeClaimApiVersion),
    kind: z.literal('NodeClaim'),
    metadata: objectMetaSchema,
    spec: nodeClaimSpecSchema,
    status: nodeClaimStatusSchema.optional(),
  })
  .describe('A NodeClaim: a request for one node, and its launch state.');
export type NodeClaim = z.output<typeof nodeClaimSchema>;
export type NodeClaimInput = z.input<typeof nodeClaimSchema>;
