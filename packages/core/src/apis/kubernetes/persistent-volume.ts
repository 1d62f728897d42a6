import { z } from 'zod';
import { clusterObjectMetaSchema } from './meta.js';
import { nodeSelectorSchema } from './node-selector.js';
import { optional } from './optional.js';
import { persistentVolumeAccessModes } from './persistent-volume-claim.js';
import { resourceListSchema } from './quantity.js';

/** A CSI volume source; `driver` names the CSI driver whose topology keys apply. */
export const csiPersistentVolumeSourceSchema = z.looseObject({
  driver: z.string().min(1, { error: 'must not be empty' }),
  volumeHandle: z.string().min(1, { error: 'must not be empty' }),
  fsType: optional(z.string()),
  readOnly: optional(z.boolean()),
  volumeAttributes: optional(z.record(z.string(), z.string())),
});
export type CsiPersistentVolumeSource = z.output<typeof csiPersistentVolumeSourceSchema>;

export const persistentVolumeSpecSchema = z.looseObject({
  capacity: optional(resourceListSchema),
  accessModes: optional(z.array(z.enum(persistentVolumeAccessModes))),
  storageClassName: optional(z.string()),
  /** Where the volume can be attached: a pod using it must land on a node this selects. */
  nodeAffinity: optional(z.looseObject({ required: optional(nodeSelectorSchema) })),
  csi: optional(csiPersistentVolumeSourceSchema),
  claimRef: optional(
    z.looseObject({
      namespace: optional(z.string()),
      name: optional(z.string()),
      uid: optional(z.string()),
    }),
  ),
  persistentVolumeReclaimPolicy: optional(z.enum(['Retain', 'Delete', 'Recycle'])),
  volumeMode: optional(z.enum(['Filesystem', 'Block'])),
});
export type PersistentVolumeSpec = z.output<typeof persistentVolumeSpecSchema>;

export const persistentVolumeSchema = z.looseObject({
  apiVersion: z.literal('v1'),
  kind: z.literal('PersistentVolume'),
  metadata: clusterObjectMetaSchema,
  spec: optional(persistentVolumeSpecSchema).transform((spec) => spec ?? {}),
  status: optional(
    z.looseObject({ phase: optional(z.enum(['Pending', 'Available', 'Bound', 'Released', 'Failed'])) }),
  ),
});
/** A v1 PersistentVolume. */
export type PersistentVolume = z.output<typeof persistentVolumeSchema>;
