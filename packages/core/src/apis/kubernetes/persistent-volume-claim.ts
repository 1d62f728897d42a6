import { z } from 'zod';
import { labelSelectorSchema } from './label-selector.js';
import { namespacedObjectMetaSchema } from './meta.js';
import { optional } from './optional.js';
import { resourceListSchema } from './quantity.js';

export const persistentVolumeAccessModes = [
  'ReadWriteOnce',
  'ReadOnlyMany',
  'ReadWriteMany',
  'ReadWriteOncePod',
] as const;

/**
 * A claim's spec. `storageClassName` absent means the cluster's default class; `""` means no
 * class (bind only to class-less volumes); `volumeName` set means the claim is (being) bound
 * to that volume, whose node affinity then constrains the pod.
 */
export const persistentVolumeClaimSpecSchema = z.looseObject({
  storageClassName: optional(z.string()),
  volumeName: optional(z.string()),
  accessModes: optional(z.array(z.enum(persistentVolumeAccessModes))),
  volumeMode: optional(z.enum(['Filesystem', 'Block'])),
  selector: optional(labelSelectorSchema),
  resources: optional(
    z.looseObject({
      requests: optional(resourceListSchema),
      limits: optional(resourceListSchema),
    }),
  ),
});
export type PersistentVolumeClaimSpec = z.output<typeof persistentVolumeClaimSpecSchema>;

export const persistentVolumeClaimSchema = z.looseObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('PersistentVolumeClaim'),
  metadata: namespacedObjectMetaSchema,
  spec: optional(persistentVolumeClaimSpecSchema).transform((spec) => spec ?? {}),
  status: optional(
    z.looseObject({
      phase: optional(z.enum(['Pending', 'Bound', 'Lost'])),
      capacity: optional(resourceListSchema),
    }),
  ),
});
/** A v1 PersistentVolumeClaim. */
export type PersistentVolumeClaim = z.output<typeof persistentVolumeClaimSchema>;
