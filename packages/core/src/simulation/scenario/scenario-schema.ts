import { z } from 'zod';
import { instanceTypeCatalogSchema } from '../../apis/catalog/instance-type-catalog.js';
import { durationMs } from '../../apis/common/duration.js';
import { nodePoolSchema } from '../../apis/v1/nodepool.js';
import { DefaultPodInitialBackoffMs, DefaultPodMaxBackoffMs } from '../kube/binder/backoff-defaults.js';
import { ScenarioLimits } from './scenario-limits.js';

/** Milliseconds from a `30s` / `10m` / `1h30m` duration; `0` alone is accepted as zero. */
const offset = z.union([z.literal(0), z.string()]).transform((text, ctx) => {
  if (text === 0) return 0;
  const ms = durationMs(text);
  if (ms === undefined || !Number.isFinite(ms)) {
    ctx.addIssue({
      code: 'custom',
      message: `must be a duration such as 30s, 10m or 1h30m, not ${JSON.stringify(text)}`,
    });
    return z.NEVER;
  }
  return ms;
});

const positiveOffset = offset.refine((ms) => ms > 0, 'must be longer than 0s');

const probability = z.number().min(0).max(1);

/** A pod count of one workload, bounded (see ScenarioLimits). */
const podCount = z
  .int()
  .max(
    ScenarioLimits.podsPerWorkload,
    `must be at most ${ScenarioLimits.podsPerWorkload} (the simulator's limit per workload)`,
  );

/** A list bounded by ScenarioLimits.listItems. */
const boundedList = <T extends z.ZodType>(item: T) =>
  z.array(item).max(ScenarioLimits.listItems, `must have at most ${ScenarioLimits.listItems} items`);

/** A latency: a fixed duration, or a distribution of durations (drawn from the seeded random). */
const latency = z.union([
  offset,
  z.strictObject({ uniform: z.strictObject({ min: offset, max: offset }) }),
  z.strictObject({ normal: z.strictObject({ mean: offset, stddev: offset }) }),
  z.strictObject({ exponential: z.strictObject({ mean: offset }) }),
]);

const resourceList = z.record(z.string(), z.union([z.string(), z.number()]));

const replicaStep = z.strictObject({ at: offset, replicas: podCount.min(0) });

/** Replicas following a day: min at `troughAt`, max twelve hours (half a period) later. */
const diurnal = z.strictObject({
  min: podCount.min(0),
  max: podCount.min(0),
  /** When the curve peaks, from the start. Default 14h. */
  peakAt: offset.optional(),
  /** Default 24h. */
  period: positiveOffset.optional(),
  /** How often the replica count is updated. Default 15m. */
  every: offset
    .refine(
      (ms) => ms >= ScenarioLimits.minDiurnalEveryMs,
      `must be at least ${ScenarioLimits.minDiurnalEveryMs / 1000}s`,
    )
    .optional(),
});

const spread = z.strictObject({
  topologyKey: z.string().min(1),
  maxSkew: z.int().min(1).default(1),
  whenUnsatisfiable: z.enum(['DoNotSchedule', 'ScheduleAnyway']).default('DoNotSchedule'),
});

/** The pods a workload runs, in the few words a scenario needs. */
const podTemplate = z.strictObject({
  requests: resourceList,
  labels: z.record(z.string(), z.string()).optional(),
  nodeSelector: z.record(z.string(), z.string()).optional(),
  tolerations: z
    .array(
      z.strictObject({
        key: z.string().optional(),
        operator: z.enum(['Equal', 'Exists']).optional(),
        value: z.string().optional(),
        effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).optional(),
      }),
    )
    .optional(),
  topologySpread: z.array(spread).optional(),
  /** Required anti-affinity of the workload's pods to each other, over this topology key. */
  antiAffinity: z.string().min(1).optional(),
  /** Sets karpenter.sh/do-not-disrupt: "true" on the pods. */
  doNotDisrupt: z.boolean().optional(),
  priorityClassName: z.string().optional(),
});

const pdb = z
  .strictObject({
    minAvailable: z.union([z.int().min(0), z.string()]).optional(),
    maxUnavailable: z.union([z.int().min(0), z.string()]).optional(),
  })
  .refine(
    (p) => (p.minAvailable === undefined) !== (p.maxUnavailable === undefined),
    'set exactly one of minAvailable and maxUnavailable',
  );

const name = z
  .string()
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a DNS label (lower-case letters, digits and -)')
  .max(50);

const deployment = z
  .strictObject({
    name,
    namespace: name.default('default'),
    replicas: z.union([podCount.min(0), boundedList(replicaStep).min(1), z.strictObject({ diurnal })]),
    pod: podTemplate,
    pdb: pdb.optional(),
  })
  .superRefine((d, ctx) => {
    if (Array.isArray(d.replicas)) {
      for (let i = 1; i < d.replicas.length; i++) {
        if (d.replicas[i]!.at <= d.replicas[i - 1]!.at)
          ctx.addIssue({
            code: 'custom',
            path: ['replicas', i, 'at'],
            message: 'must be later than the step before',
          });
      }
    } else if (typeof d.replicas === 'object' && d.replicas.diurnal.max < d.replicas.diurnal.min) {
      ctx.addIssue({ code: 'custom', path: ['replicas', 'diurnal', 'max'], message: 'must be at least min' });
    }
  });

const job = z.strictObject({
  name,
  namespace: name.default('default'),
  /** Pods to complete. */
  count: podCount.min(1),
  /** Pods running at once; default count. */
  parallelism: podCount.min(1).optional(),
  arriveAt: offset,
  runFor: positiveOffset,
  pod: podTemplate,
});

const storm = z.strictObject({
  at: offset,
  capacityType: z.enum(['spot', 'on-demand', 'reserved']).default('spot'),
  zone: z.string().optional(),
  fraction: z.number().gt(0).max(1).default(1),
});

const cloud = z.strictObject({
  /** From CloudProvider.create (which returns at once) until the instance is running. Default 5s. */
  launchLatency: latency.optional(),
  /** From the instance running until its Node registers (boot). Default 30s. */
  registrationDelay: latency.optional(),
  /** Probability that a launch on an offering fails: `default`, or by `capacityType:type:zone` (`*` allowed). */
  iceRate: z.union([probability, z.record(z.string(), probability)]).optional(),
  /** Interruptions per running spot instance per hour. */
  spotInterruptionsPerHour: z.number().min(0).max(ScenarioLimits.spotInterruptionsPerHour).optional(),
  storms: boundedList(storm).optional(),
});

/**
 * The simulated kube-scheduler. `backoff` gives it kube-scheduler's per-pod backoff
 * (`podInitialBackoffSeconds` 1, `podMaxBackoffSeconds` 10 unless given); absent, a pod that
 * failed is tried again at once on every change that may help it.
 */
const scheduler = z.strictObject({
  backoff: z
    .strictObject({
      initial: positiveOffset.default(DefaultPodInitialBackoffMs),
      max: positiveOffset.default(DefaultPodMaxBackoffMs),
    })
    .refine((b) => b.max >= b.initial, { path: ['max'], message: 'must be at least initial' })
    .optional(),
});

const event = z.strictObject({
  at: offset,
  /** A JSON merge patch applied to the named NodePool (a template edit makes its nodes drift). */
  nodePoolPatch: z.strictObject({ name: z.string().min(1), patch: z.record(z.string(), z.unknown()) }),
});

/** The `catalog` field: a built-in catalog name, or an InstanceTypeCatalog written inline. */
const catalog = z.union([z.string().min(1), instanceTypeCatalogSchema]);

/**
 * nodewright's scenario format: a cluster's NodePools, a simulated cloud, workloads that change
 * over time and events, for `nodewright simulate`. Unknown fields are errors, so a typo is
 * reported instead of silently ignored.
 */
export const scenarioSchema = z
  .strictObject({
    name: z.string().min(1),
    description: z.string().optional(),
    duration: positiveOffset.refine(
      (ms) => ms <= ScenarioLimits.durationMs,
      `must be at most ${ScenarioLimits.durationMs / 3_600_000}h (31 days, the simulator's limit)`,
    ),
    seed: z.union([z.int(), z.string()]).default(1),
    /** Simulated start, RFC 3339. Default 2026-03-02T00:00:00Z (a Monday). */
    start: z.iso.datetime({ offset: true }).optional(),
    catalog,
    nodePools: z
      .array(nodePoolSchema)
      .min(1)
      .max(ScenarioLimits.nodePools, `must have at most ${ScenarioLimits.nodePools} NodePools`),
    cloud: cloud.default({}),
    scheduler: scheduler.default({}),
    workloads: z
      .strictObject({
        deployments: z.array(deployment).max(ScenarioLimits.workloads).default([]),
        jobs: z.array(job).max(ScenarioLimits.workloads).default([]),
      })
      .default({ deployments: [], jobs: [] }),
    events: boundedList(event).default([]),
  })
  .superRefine((s, ctx) => {
    const pools = new Set(s.nodePools.map((p) => p.metadata.name));
    for (const [i, e] of s.events.entries()) {
      if (!pools.has(e.nodePoolPatch.name))
        ctx.addIssue({
          code: 'custom',
          path: ['events', i, 'nodePoolPatch', 'name'],
          message: `no NodePool is named ${JSON.stringify(e.nodePoolPatch.name)}`,
        });
    }
    checkScenarioSize(s, ctx);
    const seen = new Set<string>();
    for (const kind of ['deployments', 'jobs'] as const) {
      for (const [i, w] of s.workloads[kind].entries()) {
        const key = `${w.namespace}/${w.name}`;
        if (seen.has(key))
          ctx.addIssue({
            code: 'custom',
            path: ['workloads', kind, i, 'name'],
            message: `${key} is named twice`,
          });
        seen.add(key);
      }
    }
  });

/** Too many workloads, or too many pods at once across them (see ScenarioLimits). */
function checkScenarioSize(
  s: {
    workloads: {
      deployments: readonly { replicas: unknown }[];
      jobs: readonly { count: number; parallelism?: number | undefined }[];
    };
  },
  ctx: z.RefinementCtx,
): void {
  const { deployments, jobs } = s.workloads;
  if (deployments.length + jobs.length > ScenarioLimits.workloads) {
    ctx.addIssue({
      code: 'custom',
      path: ['workloads'],
      message: `has ${deployments.length + jobs.length} deployments and jobs; the simulator's limit is ${ScenarioLimits.workloads}`,
    });
    return;
  }
  const peak = (replicas: unknown): number => {
    if (typeof replicas === 'number') return replicas;
    if (Array.isArray(replicas))
      return Math.max(...replicas.map((step: { replicas: number }) => step.replicas));
    return (replicas as { diurnal: { max: number } }).diurnal.max;
  };
  const pods =
    deployments.reduce((sum, d) => sum + peak(d.replicas), 0) +
    jobs.reduce((sum, j) => sum + Math.min(j.count, j.parallelism ?? j.count), 0);
  if (pods > ScenarioLimits.podsAtOnce) {
    ctx.addIssue({
      code: 'custom',
      path: ['workloads'],
      message: `may run ${pods} pods at once (peak replicas plus job parallelism); the simulator's limit is ${ScenarioLimits.podsAtOnce}`,
    });
  }
}

/** A parsed scenario: durations in milliseconds from the start, defaults filled in. */
export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioDeployment = Scenario['workloads']['deployments'][number];
export type ScenarioJob = Scenario['workloads']['jobs'][number];
export type ScenarioPodTemplate = ScenarioDeployment['pod'];
export type ScenarioLatency = z.output<typeof latency>;
