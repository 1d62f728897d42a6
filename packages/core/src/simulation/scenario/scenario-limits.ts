/**
 * The largest scenario `nodewright simulate` accepts. A scenario is a user's file: without
 * bounds a typo (`replicas: 100000000`, `duration: 100000h`) runs for hours or exhausts memory
 * instead of failing at once with the field named. The limits sit well above the shipped
 * examples; the pod limits are the largest scale the simulator is benchmarked at (100,000 pods
 * on 10,000 nodes: `bench/scenarios/scale-up-10000.yaml`).
 */
export const ScenarioLimits = {
  /** Simulated time: 31 days. */
  durationMs: 31 * 24 * 3_600_000,
  /** Pods of one workload: a deployment's replicas (at any step or peak) or a job's count. */
  podsPerWorkload: 100_000,
  /** Pods all workloads may run at once: peak replicas plus each job's parallelism. */
  podsAtOnce: 100_000,
  /** Deployments plus jobs. */
  workloads: 1_000,
  /** NodePools. */
  nodePools: 100,
  /** Replica steps of one deployment, events, and storms, each. */
  listItems: 1_000,
  /** The shortest `diurnal.every`: a finer curve only multiplies the work. */
  minDiurnalEveryMs: 10_000,
  /** Spot interruptions per instance per hour. */
  spotInterruptionsPerHour: 60,
} as const;
