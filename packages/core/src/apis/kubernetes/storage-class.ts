import { z } from 'zod';
import { clusterObjectMetaSchema } from './meta.js';
import { labelValueSchema, qualifiedNameSchema } from './names.js';
import { optional } from './optional.js';

/**
 * One allowed-topologies term: every expression must hold (`key in values`); terms are ORed.
 */
export const topologySelectorTermSchema = z.looseObject({
  matchLabelExpressions: optional(
    z.array(
      z.looseObject({
        key: qualifiedNameSchema,
        values: z.array(labelValueSchema).min(1, { error: 'must have at least one value' }),
      }),
    ),
  ),
});
export type TopologySelectorTerm = z.output<typeof topologySelectorTermSchema>;

/**
 * A storage.k8s.io/v1 StorageClass. Defaults are the API server's: volumeBindingMode
 * Immediate (volumes are provisioned before the pod is scheduled, so their topology binds the
 * pod) and reclaimPolicy Delete. WaitForFirstConsumer lets the pod's placement pick the zone.
 */
export const storageClassSchema = z.looseObject({
  apiVersion: z.literal('storage.k8s.io/v1'),
  kind: z.literal('StorageClass'),
  metadata: clusterObjectMetaSchema,
  provisioner: z.string().min(1, { error: 'must not be empty' }),
  parameters: optional(z.record(z.string(), z.string())),
  reclaimPolicy: optional(z.enum(['Retain', 'Delete'])).transform((p) => p ?? 'Delete'),
  volumeBindingMode: optional(z.enum(['Immediate', 'WaitForFirstConsumer'])).transform(
    (m) => m ?? 'Immediate',
  ),
  allowVolumeExpansion: optional(z.boolean()),
  allowedTopologies: optional(z.array(topologySelectorTermSchema)),
  mountOptions: optional(z.array(z.string())),
});
/** A storage.k8s.io/v1 StorageClass. */
export type StorageClass = z.output<typeof storageClassSchema>;
