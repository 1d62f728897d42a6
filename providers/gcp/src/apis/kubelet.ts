import { celList, int32, QuantityPattern, withRules } from '@nodewright/core/apis';
import { z } from 'zod';

export const ReservedResources = ['cpu', 'memory', 'ephemeral-storage', 'pid'] as const;
export const EvictionSignals = [
  'memory.available',
  'nodefs.available',
  'nodefs.inodesFree',
  'imagefs.available',
  'imagefs.inodesFree',
  'pid.available',
] as const;

type StringMap = Record<string, string>;
const quantityRe = new RegExp(QuantityPattern);
const EvictionPattern = new RegExp(
  `^((\\d{1,2}(\\.\\d{1,2})?|100(\\.0{1,2})?)%|${QuantityPattern.slice(1, -1)})$`,
);

function keyedMap(field: string, allowed: readonly string[], value: z.ZodString) {
  return withRules(z.record(z.string(), value), [
    {
      cel: {
        rule: `self.all(x, x in ${celList(allowed)})`,
        message: `valid keys for ${field} are ${allowed.join(', ')}`,
      },
      check: (map: StringMap) =>
        Object.keys(map).flatMap((k) => (allowed.includes(k) ? [] : [{ path: [k] }])),
    },
  ]);
}

const reserved = (field: string) =>
  keyedMap(field, ReservedResources, z.string().regex(quantityRe, 'must be a quantity such as 100m or 1Gi'));
const eviction = (field: string) =>
  keyedMap(
    field,
    EvictionSignals,
    z.string().regex(EvictionPattern, 'must be a quantity or a percentage such as 10%'),
  );

/** The kubelet settings nodewright passes to the nodes (and counts in allocatable). */
export const kubeletConfigurationSchema = z
  .strictObject({
    maxPods: int32()
      .min(0, 'must not be negative')
      .describe('Most pods per node; 110 when unset.')
      .optional(),
    podsPerCore: int32().min(0, 'must not be negative').describe('Most pods per vCPU.').optional(),
    kubeReserved: reserved('kubeReserved').describe("Resources reserved for Kubernetes' daemons.").optional(),
    systemReserved: reserved('systemReserved')
      .describe("Resources reserved for the OS's daemons.")
      .optional(),
    evictionHard: eviction('evictionHard').describe('Hard eviction thresholds.').optional(),
    cpuCFSQuota: z.boolean().describe('Enforce CPU limits with CFS quota.').optional(),
    imageGCHighThresholdPercent: int32()
      .min(0, 'must be at least 0')
      .max(100, 'must be at most 100')
      .describe('Disk usage that starts image garbage collection.')
      .optional(),
  })
  .describe('Kubelet settings.');
export type KubeletConfiguration = z.output<typeof kubeletConfigurationSchema>;
