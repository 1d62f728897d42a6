import type { CreateFleetCommandInput, FleetLaunchTemplateConfigRequest } from '@aws-sdk/client-ec2';
import { CapacityTypes } from '@nodewright/core/apis';
import type { PlannedGroup } from './launch-plan.js';
import { toEc2Tags } from './launch-template-data.js';

/** A planned group with the name of the launch template it launches from. */
export interface FleetGroup extends PlannedGroup {
  readonly launchTemplateName: string;
}

/**
 * The CreateFleet request for one NodeClaim: an `instant` fleet of one instance, one launch
 * template config per group with its overrides (instance type x zone's subnet, priority = price
 * rank), spot price-capacity-optimized or on-demand lowest-price, and the tags every instance
 * and volume carries (nodewright finds its instances by them, and by the NodeClaim tag a retry
 * after a crash finds the instance it already launched).
 */
export function fleetRequest(input: {
  readonly capacityType: string;
  readonly groups: readonly FleetGroup[];
  readonly tags: Readonly<Record<string, string>>;
  readonly context?: string | undefined;
  /** Makes the request idempotent: EC2 answers a repeat with the first result (launchClientToken). */
  readonly clientToken?: string | undefined;
}): CreateFleetCommandInput {
  const spot = input.capacityType === CapacityTypes.Spot;
  const tags = toEc2Tags(input.tags);
  const configs: FleetLaunchTemplateConfigRequest[] = input.groups.map((g) => ({
    LaunchTemplateSpecification: { LaunchTemplateName: g.launchTemplateName, Version: '$Latest' },
    Overrides: g.overrides.map((o) => ({
      InstanceType: o.instanceType as never,
      SubnetId: o.subnetId,
      AvailabilityZone: o.zone,
      Priority: o.priority,
    })),
  }));
  return {
    ...(input.clientToken !== undefined ? { ClientToken: input.clientToken } : {}),
    Type: 'instant',
    ...(input.context !== undefined ? { Context: input.context } : {}),
    TargetCapacitySpecification: {
      TotalTargetCapacity: 1,
      DefaultTargetCapacityType: spot ? 'spot' : 'on-demand',
    },
    ...(spot
      ? { SpotOptions: { AllocationStrategy: 'price-capacity-optimized' } }
      : { OnDemandOptions: { AllocationStrategy: 'lowest-price' } }),
    LaunchTemplateConfigs: configs,
    TagSpecifications: [
      { ResourceType: 'instance', Tags: tags },
      { ResourceType: 'volume', Tags: tags },
      { ResourceType: 'fleet', Tags: tags },
    ],
  };
}
