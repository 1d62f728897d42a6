import { z } from 'zod';
import { clusterObjectMetaSchema, objectConditionSchema } from './meta.js';
import { optional } from './optional.js';
import { resourceListSchema } from './quantity.js';
import { nodeTaintSchema } from './taint.js';

export const nodeSpecSchema = z.looseObject({
  providerID: optional(z.string()),
  unschedulable: optional(z.boolean()),
  taints: optional(z.array(nodeTaintSchema)),
  podCIDR: optional(z.string()),
});
export type NodeSpec = z.output<typeof nodeSpecSchema>;

export const nodeStatusSchema = z.looseObject({
  capacity: optional(resourceListSchema),
  allocatable: optional(resourceListSchema),
  conditions: optional(z.array(objectConditionSchema)),
  /** Deprecated by Kubernetes and usually unset; read only for Karpenter's `phase` metric label. */
  phase: optional(z.string()),
});
export type NodeStatus = z.output<typeof nodeStatusSchema>;

/**
 * A v1 Node. Its labels carry its topology (zone, instance type, capacity type, nodepool);
 * `status.allocatable` is what pods may request (capacity when absent).
 */
export const nodeSchema = z.looseObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('Node'),
  metadata: clusterObjectMetaSchema,
  spec: optional(nodeSpecSchema).transform((spec) => spec ?? {}),
  status: optional(nodeStatusSchema),
});
export type Node = z.output<typeof nodeSchema>;
