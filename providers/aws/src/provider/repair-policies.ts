import type { RepairPolicy } from '@nodewright/core/cloudprovider';

const minutes = (n: number) => n * 60_000;

/**
 * As Karpenter's AWS provider: a node whose kubelet reports Ready False or Unknown for 30 min,
 * or whose EKS node monitoring agent reports a failed subsystem (accelerated hardware 10 min,
 * storage, networking, kernel, container runtime 30 min), is replaced.
 */
export const AwsRepairPolicies: readonly RepairPolicy[] = Object.freeze([
  { conditionType: 'Ready', conditionStatus: 'False', tolerationDurationMs: minutes(30) },
  { conditionType: 'Ready', conditionStatus: 'Unknown', tolerationDurationMs: minutes(30) },
  { conditionType: 'AcceleratedHardwareReady', conditionStatus: 'False', tolerationDurationMs: minutes(10) },
  { conditionType: 'StorageReady', conditionStatus: 'False', tolerationDurationMs: minutes(30) },
  { conditionType: 'NetworkingReady', conditionStatus: 'False', tolerationDurationMs: minutes(30) },
  { conditionType: 'KernelReady', conditionStatus: 'False', tolerationDurationMs: minutes(30) },
  { conditionType: 'ContainerRuntimeReady', conditionStatus: 'False', tolerationDurationMs: minutes(30) },
]);
