import { resourceType } from './resource-type.js';

/*
 * The built-in kinds nodewright's controllers read or write, described once so every adapter
 * addresses them the same way. Typed loosely (KubeObject); callers narrow with a type argument
 * (`get<Pod>(Pods, key)`) or their own descriptor.
 */

export const Namespaces = resourceType({
  apiVersion: 'v1',
  kind: 'Namespace',
  namespaced: false,
  statusSubresource: true,
});
export const Nodes = resourceType({
  apiVersion: 'v1',
  kind: 'Node',
  namespaced: false,
  statusSubresource: true,
});
export const Pods = resourceType({
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
export const PersistentVolumeClaims = resourceType({
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
export const PodDisruptionBudgets = resourceType({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  namespaced: true,
  statusSubresource: true,
});
export const Leases = resourceType({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespaced: true });
export const StorageClasses = resourceType({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  namespaced: false,
});
export const CSINodes = resourceType({ apiVersion: 'storage.k8s.io/v1', kind: 'CSINode', namespaced: false });
export const VolumeAttachments = resourceType({
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
