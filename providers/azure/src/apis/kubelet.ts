import { int32, withRules } from '@nodewright/core/apis';
import { z } from 'zod';

const percent = () => int32().min(0, 'must be at least 0').max(100, 'must be at most 100');

/**
 * The kubelet settings an AKSNodeClass passes to its nodes (upstream's subset of
 * KubeletConfiguration, same names and meanings).
 */
export const aksKubeletSchema = withRules(
  z
    .strictObject({
      cpuManagerPolicy: z
        .enum(['none', 'static'], { error: 'must be one of none, static' })
        .describe('The CPU manager policy.')
        .optional(),
      cpuCFSQuota: z.boolean().describe('Enforce CPU limits with CFS quota.').optional(),
      cpuCFSQuotaPeriod: z
        .string()
        .regex(/^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/, 'must be a duration such as 100ms')
        .describe('The CFS quota period.')
        .optional(),
      imageGCHighThresholdPercent: percent()
        .describe('Disk usage percentage above which image garbage collection always runs.')
        .optional(),
      imageGCLowThresholdPercent: percent()
        .describe('Disk usage percentage image garbage collection frees down to.')
        .optional(),
      topologyManagerPolicy: z
        .enum(['restricted', 'best-effort', 'none', 'single-numa-node'], {
          error: 'must be one of restricted, best-effort, none, single-numa-node',
        })
        .describe('The topology manager policy.')
        .optional(),
      allowedUnsafeSysctls: z
        .array(z.string())
        .meta({ 'x-kubernetes-list-type': 'set', description: 'Unsafe sysctls pods may set.' })
        .optional(),
      containerLogMaxSize: z
        .string()
        .regex(/^[0-9]+([KMG]i?)?$/, 'must be a size such as 10Mi')
        .describe('The largest a container log file grows before it is rotated.')
        .optional(),
      containerLogMaxFiles: int32()
        .min(2, 'must be at least 2')
        .describe('How many log files a container keeps.')
        .optional(),
      podPidsLimit: z.number().int('must be an integer').describe('The most PIDs a pod may use.').optional(),
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
  ],
);
export type AKSKubeletConfiguration = z.output<typeof aksKubeletSchema>;
