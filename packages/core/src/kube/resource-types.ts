import type { Node } from '../apis/kubernetes/node.js';
import type { Pod } from '../apis/kubernetes/pod.js';
import { nodeClaimKind, nodePoolKind } from '../apis/v1/kinds.js';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import type { NodePool } from '../apis/v1/nodepool.js';
import type { PodDisruptionBudgetLike } from './disruption-budget.js';
import type { KubeObject } from './object.js';
import { type ResourceType, resourceType, resourceTypeOf } from './resource-type.js';

/*
 * The one place every kind nodewright reads or writes is described (its resource handle), so
 * every adapter addresses it the same way and every caller gets the same type. The kinds the
 * controllers look inside are typed with the apis schemas' types; the others stay KubeObject,
 * and callers narrow with a type argument (`get<Deployment>(Deployments, key)`).
 */

/** `karpenter.sh/v1` NodePools. */
export const NodePools: ResourceType<NodePool> = resourceTypeOf<NodePool>(nodePoolKind);
/** `karpenter.sh/v1` NodeClaims. */
export const NodeClaims: ResourceType<NodeClaim> = resourceTypeOf<NodeClaim>(nodeClaimKind);

export const Namespaces = resourceType({
  apiVersion: 'v1',
  kind: 'Namespace',
  namespaced: false,
  statusSubresource: true,
});
export const Nodes: ResourceType<Node> = resourceType<Node>({
  apiVersion: 'v1',
  kind: 'Node',
  namespaced: false,
  statusSubresource: true,
});
export const Pods: ResourceType<Pod> = resourceType<Pod>({
  apiVersion: 'v1',
  kind: 'Pod',
  namespaced: true,
  statusSubresource: true,
});
export const Events = resourceType({ apiVersion: 'v1', kind: 'Event', namespaced: true });
export const ConfigMaps = resourceType({ apiVersion: 'v1', kind: 'ConfigMap', namespaced: true });
export const Secrets = resourceType({ apiVersion: 'v1', kind: 'Secret', namespaced: true });
export const ServiceAccounts = resourceType({ apiVersion: 'v1', kind: 'ServiceAccount', namespaced: true });
export const Services = resourceType({
  apiVersion: 'v1',
  kind: 'Service',
  namespaced: true,
  statusSubresource: true,
});
export const PersistentVolumes = resourceType({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  namespaced: false,
  statusSubresource: true,
});
export const PersistentVolumeClaims: ResourceType<KubeObject & { spec?: { volumeName?: string } }> =
  resourceType({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    namespaced: true,
    statusSubresource: true,
  });
export const ReplicationControllers = resourceType({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  namespaced: true,
  statusSubresource: true,
});
export const Deployments = resourceType({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  namespaced: true,
  statusSubresource: true,
});
export const ReplicaSets = resourceType({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  namespaced: true,
  statusSubresource: true,
});
export const StatefulSets = resourceType({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  namespaced: true,
  statusSubresource: true,
});
export const DaemonSets = resourceType({
  apiVersion: 'apps/v1',
  kind: 'DaemonSet',
  namespaced: true,
  statusSubresource: true,
});
export const Jobs = resourceType({
  apiVersion: 'batch/v1',
  kind: 'Job',
  namespaced: true,
  statusSubresource: true,
});
export const PodDisruptionBudgets: ResourceType<PodDisruptionBudgetLike> =
  resourceType<PodDisruptionBudgetLike>({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    namespaced: true,
    statusSubresource: true,
  });
/** `coordination.k8s.io/v1` LeaseSpec: who holds the lease and since when. */
export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  /** metav1.MicroTime: RFC 3339 with microseconds. */
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

/** A `coordination.k8s.io/v1` Lease. */
export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

export const Leases: ResourceType<Lease> = resourceType<Lease>({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  namespaced: true,
});
export const StorageClasses = resourceType({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  namespaced: false,
});
export const CSINodes = resourceType({ apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', namespaced: false });
/** A storage.k8s.io/v1 VolumeAttachment: which volume is attached to which node. */
export interface VolumeAttachment extends KubeObject {
  spec?: { attacher?: string; nodeName?: string; source?: { persistentVolumeName?: string } };
  status?: { attached?: boolean };
}
export const VolumeAttachments: ResourceType<VolumeAttachment> = resourceType<VolumeAttachment>({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'VolumeAttachment',
  namespaced: false,
  statusSubresource: true,
});
export const PriorityClasses = resourceType({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  namespaced: false,
});

/** Every built-in kind above, for adapters that pre-register the API server's own kinds. */
export const BUILTIN_TYPES = Object.freeze([
  Namespaces,
  Nodes,
  Pods,
  Events,
  ConfigMaps,
  Secrets,
  ServiceAccounts,
  Services,
  PersistentVolumes,
  PersistentVolumeClaims,
  ReplicationControllers,
  Deployments,
  ReplicaSets,
  StatefulSets,
  DaemonSets,
  Jobs,
  PodDisruptionBudgets,
  Leases,
  StorageClasses,
  CSINodes,
  VolumeAttachments,
  PriorityClasses,
]);
