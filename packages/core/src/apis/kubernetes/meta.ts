import { z } from 'zod';
import { annotationsSchema, labelsSchema, objectNameSchema } from './names.js';
import { optional } from './optional.js';

/** An RFC 3339 timestamp as Kubernetes writes them (`2024-05-01T12:00:00Z`). */
export const timestampSchema = z
  .string()
  .refine((text) => RFC3339.test(text) && !Number.isNaN(Date.parse(text)), {
    error: 'must be an RFC 3339 timestamp such as 2024-05-01T12:00:00Z',
  });
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * The object that owns this one. The API server also requires `uid`; nodewright accepts
 * hand-written snapshots without one, since only kind and name matter to its decisions
 * (DaemonSet- or Node-owned pods are never provisioned for).
 */
export const ownerReferenceSchema = z.looseObject({
  apiVersion: z.string().min(1, { error: 'must not be empty' }),
  kind: z.string().min(1, { error: 'must not be empty' }),
  name: z.string().min(1, { error: 'must not be empty' }),
  uid: optional(z.string()),
  controller: optional(z.boolean()),
  blockOwnerDeletion: optional(z.boolean()),
});
export type OwnerReference = z.output<typeof ownerReferenceSchema>;

const metadataFields = {
  name: objectNameSchema,
  uid: optional(z.string()),
  labels: optional(labelsSchema),
  annotations: optional(annotationsSchema),
  ownerReferences: optional(z.array(ownerReferenceSchema)),
  creationTimestamp: optional(timestampSchema),
  deletionTimestamp: optional(timestampSchema),
  generation: optional(z.number().int()),
  resourceVersion: optional(z.string()),
  finalizers: optional(z.array(z.string())),
};

/** Metadata of a cluster-scoped object; `name` is required. */
export const clusterObjectMetaSchema = z.looseObject(metadataFields);
export type ClusterObjectMeta = z.output<typeof clusterObjectMetaSchema>;

/**
 * Metadata of a namespaced object. A missing namespace becomes `default`, as `kubectl apply`
 * would place the object, so every consumer sees the namespace the object would live in.
 */
export const namespacedObjectMetaSchema = z.looseObject({
  ...metadataFields,
  namespace: optional(objectNameSchema).transform((ns) => ns ?? 'default'),
});
export type NamespacedObjectMeta = z.output<typeof namespacedObjectMetaSchema>;

/** Metadata inside a template (pod template, PVC template): nothing is required. */
export const templateMetaSchema = z.looseObject({
  ...metadataFields,
  name: optional(objectNameSchema),
  namespace: optional(objectNameSchema),
});
export type TemplateMeta = z.output<typeof templateMetaSchema>;

/** A status condition (`type`, `status` True/False/Unknown, and the optional details). */
export const objectConditionSchema = z.looseObject({
  type: z.string().min(1, { error: 'must not be empty' }),
  status: z.enum(['True', 'False', 'Unknown']),
  reason: optional(z.string()),
  message: optional(z.string()),
  lastTransitionTime: optional(timestampSchema),
  lastHeartbeatTime: optional(timestampSchema),
  lastProbeTime: optional(timestampSchema),
  observedGeneration: optional(z.number().int()),
});
export type ObjectCondition = z.output<typeof objectConditionSchema>;
