import type { KindDefinition } from '../kind.js';
import { daemonSetSchema } from './daemon-set.js';
import { nodeSchema } from './node.js';
import { persistentVolumeSchema } from './persistent-volume.js';
import { persistentVolumeClaimSchema } from './persistent-volume-claim.js';
import { podSchema } from './pod.js';
import { podDisruptionBudgetSchema } from './pod-disruption-budget.js';
import { storageClassSchema } from './storage-class.js';

/**
 * The built-in Kubernetes kinds nodewright reads. None carries a CRD: the API server defines
 * them, and nodewright only checks the fields it models.
 */
export const kubernetesKinds: readonly KindDefinition[] = [
  { apiVersion: 'v1', kind: 'Pod', namespaced: true, schema: podSchema },
  { apiVersion: 'v1', kind: 'Node', namespaced: false, schema: nodeSchema },
  { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespaced: true, schema: persistentVolumeClaimSchema },
  { apiVersion: 'v1', kind: 'PersistentVolume', namespaced: false, schema: persistentVolumeSchema },
  { apiVersion: 'apps/v1', kind: 'DaemonSet', namespaced: true, schema: daemonSetSchema },
  {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    namespaced: true,
    schema: podDisruptionBudgetSchema,
  },
  { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', namespaced: false, schema: storageClassSchema },
];
