import type { RepairPolicy } from '@nodewright/core/cloudprovider';

/** A node whose Ready condition is False or Unknown for 10 minutes is replaced (AKS NAP's policy). */
export const AzureRepairPolicies: readonly RepairPolicy[] = [
  { conditionType: 'Ready', conditionStatus: 'False', tolerationDurationMs: 10 * 60_000 },
  { conditionType: 'Ready', conditionStatus: 'Unknown', tolerationDurationMs: 10 * 60_000 },
];
