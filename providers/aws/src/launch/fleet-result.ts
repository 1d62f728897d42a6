import type { CreateFleetCommandOutput } from '@aws-sdk/client-ec2';
import { CapacityTypes } from '@nodewright/core/apis';
import type { OfferingKey } from '@nodewright/core/cloudprovider';

/**
 * Fleet error codes that mean "this offering has no capacity for you now": the offering is
 * marked unavailable (3 min) and the next solve routes around it.
 */
export const UnavailableOfferingCodes: ReadonlySet<string> = new Set([
  'InsufficientInstanceCapacity',
  'MaxSpotInstanceCountExceeded',
  'VcpuLimitExceeded',
  'UnfulfillableCapacity',
  'Unsupported',
  'InsufficientFreeAddressesInSubnet',
]);

/** The instance a fleet launched. */
export interface FleetInstance {
  readonly instanceId: string;
  readonly instanceType: string;
  readonly zone: string | undefined;
  readonly capacityType: string;
}

/** One error of the fleet's errorSet. */
export interface FleetError {
  readonly code: string;
  readonly message: string;
  readonly offering: OfferingKey | undefined;
}

/** What a CreateFleet answer means. */
export interface FleetOutcome {
  readonly instance: FleetInstance | undefined;
  /** Offerings to mark unavailable, with the code that said so. */
  readonly unavailable: { offering: OfferingKey; code: string; message: string }[];
  readonly errors: FleetError[];
  /** True when nothing launched and every error (there was at least one) was a capacity error. */
  readonly allCapacity: boolean;
}

function lifecycle(value: string | undefined, fallback: string): string {
  if (value === 'spot') return CapacityTypes.Spot;
  if (value === 'on-demand') return CapacityTypes.OnDemand;
  return fallback;
}

/**
 * Reads a CreateFleet answer: the launched instance (the first, as one was asked for), the
 * errors, and the offerings their codes make unavailable. `zoneOfSubnet` fills the zone when an
 * override names only its subnet.
 */
export function readFleetOutput(
  out: Pick<CreateFleetCommandOutput, 'Instances' | 'Errors'>,
  capacityType: string,
  zoneOfSubnet: (subnetId: string | undefined) => string | undefined,
): FleetOutcome {
  let instance: FleetInstance | undefined;
  for (const i of out.Instances ?? []) {
    const id = i.InstanceIds?.[0];
    if (id === undefined || instance !== undefined) continue;
    const overrides = i.LaunchTemplateAndOverrides?.Overrides;
    instance = {
      instanceId: id,
      instanceType: i.InstanceType ?? overrides?.InstanceType ?? '',
      zone: overrides?.AvailabilityZone ?? zoneOfSubnet(overrides?.SubnetId),
      capacityType: lifecycle(i.Lifecycle, capacityType),
    };
  }
  const errors: FleetError[] = [];
  const unavailable: FleetOutcome['unavailable'] = [];
  for (const e of out.Errors ?? []) {
    const overrides = e.LaunchTemplateAndOverrides?.Overrides;
    const zone = overrides?.AvailabilityZone ?? zoneOfSubnet(overrides?.SubnetId);
    const offering =
      overrides?.InstanceType !== undefined && zone !== undefined
        ? { capacityType: lifecycle(e.Lifecycle, capacityType), instanceType: overrides.InstanceType, zone }
        : undefined;
    const code = e.ErrorCode ?? 'Unknown';
    const message = e.ErrorMessage ?? '';
    errors.push({ code, message, offering });
    if (offering !== undefined && UnavailableOfferingCodes.has(code))
      unavailable.push({ offering, code, message });
  }
  const allCapacity =
    instance === undefined && errors.length > 0 && errors.every((e) => UnavailableOfferingCodes.has(e.code));
  return { instance, unavailable, errors, allCapacity };
}
