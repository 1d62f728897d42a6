import { Gauge, Histogram, type Registry } from 'prom-client';
import { DurationBuckets as PodDurationBuckets } from '../metrics/gauges.js';
import { MetricNames } from '../metrics/names.js';
import { reuse } from '../operator/runtime/metrics.js';

/** The provisioner's metrics, with Karpenter's names; `controller` is the controller's name. */
export interface ProvisioningMetrics {
  /** `karpenter_scheduler_scheduling_duration_seconds{controller}`: one solve. */
  readonly schedulingDuration: Histogram<'controller'>;
  /** `karpenter_scheduler_queue_depth{controller}`: pods in the solve under way (0 between solves). */
  readonly queueDepth: Gauge<'controller'>;
  /** `karpenter_scheduler_unschedulable_pods_count{controller}`: pods the last pass could not place. */
  readonly unschedulablePods: Gauge<'controller'>;
  /**
   * `karpenter_scheduler_pending_pods_by_effective_zone_count{controller, zone}`: the last pass's
   * Pending pods by the zone they are confined to (`effectiveZone`), `flexible` or `none`.
   */
  readonly pendingPodsByEffectiveZone: Gauge<'controller' | 'zone'>;
  /** `karpenter_scheduler_ignored_pods_count`: unbound pods the last pass left out because their spec is invalid. */
  readonly ignoredPods: Gauge;
  /** `karpenter_pods_scheduling_decision_duration_seconds`: from a pod's first pass to its first decision. */
  readonly schedulingDecisionDuration: Histogram;
}

/** Buckets from 5 ms to 5 min: solves of a few pods to tens of thousands. */
const DurationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/** The provisioner's metrics in `registry` (reusing any already registered there). */
export function provisioningMetrics(registry: Registry): ProvisioningMetrics {
  return {
    schedulingDuration: reuse(
      registry,
      MetricNames.SchedulerSchedulingDuration,
      () =>
        new Histogram({
          name: MetricNames.SchedulerSchedulingDuration,
          help: 'Duration of scheduling simulations used for deprovisioning and provisioning in seconds.',
          labelNames: ['controller'],
          buckets: DurationBuckets,
          registers: [registry],
        }),
    ),
    queueDepth: reuse(
      registry,
      MetricNames.SchedulerQueueDepth,
      () =>
        new Gauge({
          name: MetricNames.SchedulerQueueDepth,
          help: 'The number of pods currently waiting to be scheduled.',
          labelNames: ['controller'],
          registers: [registry],
        }),
    ),
    unschedulablePods: reuse(
      registry,
      MetricNames.SchedulerUnschedulablePods,
      () =>
        new Gauge({
          name: MetricNames.SchedulerUnschedulablePods,
          help: 'The number of unschedulable Pods.',
          labelNames: ['controller'],
          registers: [registry],
        }),
    ),
    pendingPodsByEffectiveZone: reuse(
      registry,
      MetricNames.SchedulerPendingPodsByEffectiveZone,
      () =>
        new Gauge({
          name: MetricNames.SchedulerPendingPodsByEffectiveZone,
          help: "Pending pods dimensioned by effective zone constraint, or the intersection of pod-level zone signals, volume topology (PVC zones), and topology constraints. Values: specific zone name (e.g., 'us-west-2a'), 'flexible' (multiple zones), or 'none' (no valid intersection).",
          labelNames: ['controller', 'zone'],
          registers: [registry],
        }),
    ),
    ignoredPods: reuse(
      registry,
      MetricNames.SchedulerIgnoredPods,
      () =>
        new Gauge({
          name: MetricNames.SchedulerIgnoredPods,
          help: 'Number of pods ignored during scheduling by nodewright',
          registers: [registry],
        }),
    ),
    schedulingDecisionDuration: reuse(
      registry,
      MetricNames.PodsSchedulingDecisionDuration,
      () =>
        new Histogram({
          name: MetricNames.PodsSchedulingDecisionDuration,
          help: "The time it takes for nodewright to first try to schedule a pod after it's been seen.",
          buckets: PodDurationBuckets,
          registers: [registry],
        }),
    ),
  };
}
