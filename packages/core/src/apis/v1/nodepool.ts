import { z } from 'zod';
import { withCel, withRules } from '../common/cel.js';
import { conditionsSchema } from '../common/condition.js';
import { objectMetaSchema } from '../common/metadata.js';
import { int32, int64, resourceList } from '../common/primitives.js';
import { disruptionSchema } from './disruption.js';
import { nodeClaimTemplateSchema } from './template.js';

export const NodePoolApiVersion = 'karpenter.sh/v1';

/** Upstream's defaulted `disruption`; the nested defaults fill in the rest. */
const DisruptionDefault = { consolidateAfter: '0s' };

/** `spec` of a NodePool. */
export const nodePoolSpecSchema = withCel(
  withRules(
    z
      .strictObject({
        template: nodeClaimTemplateSchema,
        disruption: disruptionSchema.prefault(DisruptionDefault).meta({ default: DisruptionDefault }),
        limits: resourceList()
          .describe('Upper bounds on the resources (and `nodes`) all nodes of this NodePool may add up to.')
          .optional(),
        weight: int32()
          .min(1, 'must be at least 1')
          .max(100, 'must be at most 100')
          .describe('Priority among NodePools, 1 to 100; higher weights are tried first.')
          .optional(),
        replicas: int64()
          .min(0, 'must not be negative')
          // The scale subresource reads replicas as int32.
          .max(2147483647, 'must be at most 2147483647')
          .describe(
            'Makes the NodePool static: it keeps exactly this many nodes regardless of pods. Consolidation settings, limits other than nodes, and weight do not apply.',
          )
          .optional(),
      })
      .describe('What nodes the NodePool may launch and how they are disrupted.'),
    [
      {
        cel: {
          rule: "!has(self.replicas) || !has(self.limits) || size(self.limits) == 0 || (size(self.limits) == 1 && 'nodes' in self.limits)",
          message: 'a static NodePool (replicas set) supports only the nodes limit',
          fieldPath: '.limits',
        },
        check: (spec) =>
          spec.replicas !== undefined &&
          spec.limits !== undefined &&
          Object.keys(spec.limits).some((k) => k !== 'nodes') && { path: ['limits'] },
      },
      {
        cel: {
          rule: '!has(self.replicas) || !has(self.weight)',
          message: 'weight is not supported on a static NodePool (replicas set)',
          fieldPath: '.weight',
        },
        check: (spec) => spec.replicas !== undefined && spec.weight !== undefined && { path: ['weight'] },
      },
    ],
  ),
  [
    {
      rule: 'has(self.replicas) == has(oldSelf.replicas)',
      message:
        'replicas cannot be added or removed: a NodePool cannot switch between static and dynamic provisioning',
    },
  ],
);
export type NodePoolSpec = z.output<typeof nodePoolSpecSchema>;

/** `status` of a NodePool, written by the controller. */
export const nodePoolStatusSchema = z
  .object({
    resources: resourceList().describe('Resources of all nodes of this NodePool, added up.').optional(),
    nodes: int64().min(0).default(0).describe('How many nodes this NodePool has.'),
    conditions: conditionsSchema().describe('Ready = ValidationSucceeded and NodeClassReady.').optional(),
    nodeClassObservedGeneration: int64().describe('Generation of the NodeClass last observed.').optional(),
  })
  .describe('The observed state of the NodePool.');
export type NodePoolStatus = z.output<typeof nodePoolStatusSchema>;

/**
 * A `karpenter.sh/v1` NodePool. Parsing applies the API server's defaults (expireAfter 720h,
 * consolidateAfter 0s, consolidationPolicy WhenEmptyOrUnderutilized, budgets [{nodes: 10%}])
 * and every rule the CRD enforces except transition rules (see `validateNodePoolUpdate`).
 */
export const nodePoolSchema = z
  .strictObject({
    apiVersion: z.literal(NodePoolApiVersion),
    kind: z.literal('NodePool'),
    metadata: objectMetaSchema,
    spec: nodePoolSpecSchema,
    status: nodePoolStatusSchema.optional(),
  })
  .describe('A NodePool: a template for nodes, the limits on them and how they are disrupted.');
/** A parsed NodePool: defaults applied, quantities as strings. */
export type NodePool = z.output<typeof nodePoolSchema>;
/** A NodePool as written in a manifest. */
export type NodePoolInput = z.input<typeof nodePoolSchema>;
