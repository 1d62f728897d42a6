import { CapacityTypes, Labels } from '../../../apis/labels.js';
import { type InstanceType, orderByPrice, satisfiesMinValues } from '../../../cloudprovider/instance-type.js';
import {
  cheapestLaunchPrice,
  isOfferingCompatible,
  worstLaunchPrice,
} from '../../../cloudprovider/offering.js';
import { Requirement } from '../../../scheduling/requirements/requirement.js';
import type { Requirements } from '../../../scheduling/requirements/requirements.js';
import type { NewClaim } from '../../../scheduling/solver/types.js';

/**
 * Types whose worst launch price under the requirements is below `maxPrice` (Karpenter's
 * filterByPrice): whatever offering the launch ends up with, it costs less than what it replaces.
 */
export function cheaperTypes(
  types: readonly InstanceType[],
  requirements: Requirements,
  maxPrice: number,
): InstanceType[] {
  return types.filter((t) => worstLaunchPrice(t.offerings, requirements) < maxPrice);
}

/**
 * The claim restricted to those of `types` that can launch under `requirements`: ordered by
 * price, the instance type and capacity type requirements narrowed to what they offer, the price
 * recomputed. At least one of `types` must be launchable.
 */
export function narrowClaim(
  claim: NewClaim,
  types: readonly InstanceType[],
  requirements: Requirements,
): NewClaim {
  const launchable = types.filter((t) => Number.isFinite(cheapestLaunchPrice(t.offerings, requirements)));
  const ordered = orderByPrice(launchable, requirements);
  const r = requirements.copy();
  r.add(
    Requirement.create(
      Labels.InstanceType,
      'In',
      ordered.map((t) => t.name),
    ),
  );
  const capacityTypes = new Set<string>();
  for (const t of ordered)
    for (const o of t.offerings)
      if (o.available && isOfferingCompatible(o, r)) capacityTypes.add(o.capacityType);
  r.add(Requirement.create(Labels.CapacityType, 'In', [...capacityTypes].sort()));
  return {
    ...claim,
    instanceTypes: ordered,
    requirements: r,
    price: cheapestLaunchPrice(ordered[0]!.offerings, r),
  };
}

/** The requirements with capacity type pinned to spot. */
export function spotOnly(requirements: Requirements): Requirements {
  return requirements.copy().add(Requirement.create(Labels.CapacityType, 'In', [CapacityTypes.Spot]));
}

/** Whether the requirements allow a capacity type. */
export function allowsCapacityType(requirements: Requirements, capacityType: string): boolean {
  const r = requirements.get(Labels.CapacityType);
  return r === undefined || r.has(capacityType);
}

/** Why the types would not meet the requirements' minValues, or undefined. */
export function minValuesProblem(
  types: readonly InstanceType[],
  requirements: Requirements,
): string | undefined {
  const check = satisfiesMinValues(types, requirements);
  if (check.satisfied) return undefined;
  return `the cheaper instance types would not meet minValues: ${check.key} needs ${check.minValues} distinct values, they offer ${check.found}`;
}

/** How many leading types minValues needs (0 without minValues). */
export function minValuesNeeded(types: readonly InstanceType[], requirements: Requirements): number {
  const check = satisfiesMinValues(types, requirements);
  return check.satisfied ? check.needed : types.length;
}
