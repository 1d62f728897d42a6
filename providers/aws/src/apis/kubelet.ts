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

/** A quantity, or a percentage such as 10% or 5.5%. */
const EvictionThresholdPattern = `^((\\d{1,2}(\\.\\d{1,2})?|100(\\.0{1,2})?)%|${QuantityPattern.slice(1, -1)})$`;
/** A Go duration such as 30s, 1m30s or 1.5h. */
const GoDurationPattern = /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/;

type StringMap = Record<string, string>;

/** A map whose keys must come from `allowed`; offending keys are reported one by one. */
function keyedMap(field: string, allowed: readonly string[], value: z.ZodString) {
  const message = `valid keys for ${field} are ${allowed.join(', ')}`;
  return withRules(z.record(z.string(), value), [
    {
      cel: { rule: `self.all(x, x in ${celList(allowed)})`, message },
      check: (map: StringMap) =>
        Object.keys(map).flatMap((k) => (allowed.includes(k) ? [] : [{ path: [k] }])),
    },
  ]);
}

function reserved(field: string) {
  return withRules(
    keyedMap(
      field,
      ReservedResources,
      z.string().regex(new RegExp(QuantityPattern), 'must be a quantity such as 100m or 1Gi'),
    ),
    [
      {
        cel: {
          rule: "self.all(x, !self[x].startsWith('-'))",
          message: `${field} values must not be negative`,
        },
        check: (map: StringMap) =>
          Object.entries(map).flatMap(([k, v]) => (v.startsWith('-') ? [{ path: [k] }] : [])),
      },
    ],
  );
}

function eviction(field: string) {
  return keyedMap(
    field,
    EvictionSignals,
    z
      .string()
      .regex(
        new RegExp(EvictionThresholdPattern),
        'must be a quantity such as 100Mi or a percentage such as 10%',
      ),
  );
}

const percent = () => int32().min(0, 'must be at least 0').max(100, 'must be at most 100');

/**
 * The kubelet settings nodewright passes to nodes (a subset of KubeletConfiguration, with the
 * same names and meanings). maxPods, podsPerCore, kubeReserved, systemReserved and
 * evictionHard also shape the scheduling simulation.
 */
export const kubeletSchema = withRules(
  z
    .strictObject({
      clusterDNS: z
        .array(z.string())
        .meta({ 'x-kubernetes-list-type': 'atomic', description: 'IP addresses of the cluster DNS servers.' })
        .optional(),
      maxPods: int32().min(0, 'must not be negative').describe('The most pods a node may run.').optional(),
      podsPerCore: int32()
        .min(0, 'must not be negative')
        .describe('The most pods per CPU core; maxPods still caps the total.')
        .optional(),
      systemReserved: reserved('systemReserved')
        .describe('Resources reserved for the operating system (cpu, memory, ephemeral-storage, pid).')
        .optional(),
      kubeReserved: reserved('kubeReserved')
        .describe('Resources reserved for Kubernetes components (cpu, memory, ephemeral-storage, pid).')
        .optional(),
      evictionHard: eviction('evictionHard').describe('Hard eviction thresholds by signal.').optional(),
      evictionSoft: eviction('evictionSoft').describe('Soft eviction thresholds by signal.').optional(),
      evictionSoftGracePeriod: keyedMap(
        'evictionSoftGracePeriod',
        EvictionSignals,
        z.string().regex(GoDurationPattern, 'must be a duration such as 30s or 1m30s'),
      )
        .describe('How long each soft eviction threshold must hold before pods are evicted.')
        .optional(),
      evictionMaxPodGracePeriod: int32()
        .describe('The longest grace period, in seconds, given to pods evicted by a soft threshold.')
        .optional(),
      imageGCHighThresholdPercent: percent()
        .describe('Disk usage percentage above which image garbage collection always runs.')
        .optional(),
      imageGCLowThresholdPercent: percent()
        .describe('Disk usage percentage image garbage collection frees down to.')
        .optional(),
      cpuCFSQuota: z.boolean().describe('Enforce CPU limits with CFS quota.').optional(),
    })
    .describe('Kubelet settings for the nodes.'),
  [
    {
      cel: {
        rule: '!has(self.imageGCHighThresholdPercent) || !has(self.imageGCLowThresholdPercent) || self.imageGCHighThresholdPercent > self.imageGCLowThresholdPercent',
        message: 'imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent',
        fieldPath: '.imageGCHighThresholdPercent',
      },
      check: (k) =>
        k.imageGCHighThresholdPercent !== undefined &&
        k.imageGCLowThresholdPercent !== undefined &&
        k.imageGCHighThresholdPercent <= k.imageGCLowThresholdPercent && {
          path: ['imageGCHighThresholdPercent'],
        },
    },
    {
      cel: {
        rule: '!has(self.evictionSoft) || self.evictionSoft.all(e, has(self.evictionSoftGracePeriod) && e in self.evictionSoftGracePeriod)',
        message: 'every evictionSoft signal needs a matching evictionSoftGracePeriod',
        fieldPath: '.evictionSoft',
      },
      check: (k) =>
        Object.keys(k.evictionSoft ?? {}).flatMap((s) =>
          k.evictionSoftGracePeriod?.[s] === undefined ? [{ path: ['evictionSoft', s] }] : [],
        ),
    },
    {
      cel: {
        rule: '!has(self.evictionSoftGracePeriod) || self.evictionSoftGracePeriod.all(e, has(self.evictionSoft) && e in self.evictionSoft)',
        message: 'every evictionSoftGracePeriod signal needs a matching evictionSoft threshold',
        fieldPath: '.evictionSoftGracePeriod',
      },
      check: (k) =>
        Object.keys(k.evictionSoftGracePeriod ?? {}).flatMap((s) =>
          k.evictionSoft?.[s] === undefined ? [{ path: ['evictionSoftGracePeriod', s] }] : [],
        ),
    },
  ],
);
export type KubeletConfiguration = z.output<typeof kubeletSchema>;
