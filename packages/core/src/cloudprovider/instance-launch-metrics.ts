import { Counter, Gauge, type Registry } from 'prom-client';
import { MetricNames } from '../metrics/names.js';
import { reuse } from '../operator/runtime/metrics.js';

/**
 * Karpenter's AWS provider's instance and EC2NodeClass metrics, under its names and labels, for a
 * provider that launches and terminates instances itself (the AWS provider counts them; the
 * families are here, as the interruption ones, so the metrics reference lists them).
 */
export interface InstanceLaunchMetrics {
  /**
   * `karpenter_cloudprovider_instance_launch_failures_total{zone, zone_id, capacity_type, reason}`:
   * one per offering a CreateFleet answer refused (one call can refuse several), `reason` as
   * the provider names it (AWS: Karpenter's reasons).
   */
  readonly launchFailures: Counter<'zone' | 'zone_id' | 'capacity_type' | 'reason'>;
  /** `karpenter_cloudprovider_instance_termination_failures_total{zone, zone_id}`: TerminateInstances calls that failed. */
  readonly terminationFailures: Counter<'zone' | 'zone_id'>;
  /**
   * `karpenter_ec2nodeclasses_userdata_bytes{nodeclass}`: the rendered user data's size (before
   * base64) when a launch template is made for the class; EC2 refuses more than 16 KiB.
   */
  readonly userDataBytes: Gauge<'nodeclass'>;
}

/** The families in `registry`, reusing any already registered there (a restarted provider). */
export function instanceLaunchMetrics(registry: Registry): InstanceLaunchMetrics {
  return {
    launchFailures: reuse(
      registry,
      MetricNames.InstanceLaunchFailures,
      () =>
        new Counter({
          name: MetricNames.InstanceLaunchFailures,
          help: 'Number of instance launch (CreateFleet offering) failures, dimensioned by availability zone, zone ID, capacity type, and launch failure reason.',
          labelNames: ['zone', 'zone_id', 'capacity_type', 'reason'],
          registers: [registry],
        }),
    ),
    terminationFailures: reuse(
      registry,
      MetricNames.InstanceTerminationFailures,
      () =>
        new Counter({
          name: MetricNames.InstanceTerminationFailures,
          help: 'Number of instance termination (TerminateInstances) failures, dimensioned by availability zone and zone ID.',
          labelNames: ['zone', 'zone_id'],
          registers: [registry],
        }),
    ),
    userDataBytes: reuse(
      registry,
      MetricNames.EC2NodeClassUserDataBytes,
      () =>
        new Gauge({
          name: MetricNames.EC2NodeClassUserDataBytes,
          help: 'Size in bytes of the rendered user data (raw, pre-base64) for the EC2NodeClass',
          labelNames: ['nodeclass'],
          registers: [registry],
        }),
    ),
  };
}
