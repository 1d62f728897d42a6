import { type PersistentVolume, persistentVolumeSchema } from '../apis/kubernetes/persistent-volume.js';
import {
  type PersistentVolumeClaim,
  persistentVolumeClaimSchema,
} from '../apis/kubernetes/persistent-volume-claim.js';
import { type StorageClass, storageClassSchema } from '../apis/kubernetes/storage-class.js';
import { Labels } from '../apis/labels.js';

/** A claim in `default` with `spec` as given (`volumeName`, `storageClassName`, ...). */
export function aClaim(name: string, spec: Record<string, unknown>): PersistentVolumeClaim {
  return persistentVolumeClaimSchema.parse({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default' },
    spec,
  });
}

/** A volume whose node affinity requires one of `zones`; `extra` is merged into its spec. */
export function aZonalVolume(
  name: string,
  zones: string[],
  extra: Record<string, unknown> = {},
): PersistentVolume {
  return persistentVolumeSchema.parse({
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: {
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: Labels.Zone, operator: 'In', values: zones }] }],
        },
      },
      ...extra,
    },
  });
}

/** A WaitForFirstConsumer class, restricted to `zones` by allowedTopologies when given. */
export function aStorageClass(name: string, zones?: string[]): StorageClass {
  return storageClassSchema.parse({
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner: 'ebs.csi.aws.com',
    volumeBindingMode: 'WaitForFirstConsumer',
    ...(zones === undefined
      ? {}
      : { allowedTopologies: [{ matchLabelExpressions: [{ key: Labels.Zone, values: zones }] }] }),
  });
}
