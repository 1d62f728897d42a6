import type { Requirements } from '../scheduling/requirements/requirements.js';
import { fits } from '../scheduling/resources/fits.js';
import type { ResourceList } from '../scheduling/resources/resource-list.js';
import type { InstanceType } from './instance-type.js';
import { launchableOfferings, type Offering } from './offering.js';
import type { OfferingKey } from './unavailable-offerings.js';

/** One offering a launch may use, with its instance type (see launchOptions). */
export interface LaunchOption {
  readonly instanceType: InstanceType;
  readonly offering: Offering;
  readonly key: OfferingKey;
}

const CAPACITY_TYPE_RANK: Readonly<Record<string, number>> = { reserved: 0, spot: 1, 'on-demand': 2 };

function rank(capacityType: string): number {
  return CAPACITY_TYPE_RANK[capacityType] ?? 3;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Every offering a NodeClaim may launch on, cheapest first: of the instance types whose
 * requirements intersect the claim's and whose allocatable fits its requests, the available
 * offerings the claim's zone and capacity-type requirements allow. Price ties go reserved, spot,
 * on-demand, then by type name and zone, so the choice is the same on every run. What a provider
 * whose cloud launches exactly the offering it is asked for tries in turn (KWOK, the scaffold);
 * a cloud with an allocation strategy of its own (EC2 Fleet) is given the list instead.
 */
export function launchOptions(
  instanceTypes: readonly InstanceType[],
  requirements: Requirements,
  requests: ResourceList,
): LaunchOption[] {
  const out: LaunchOption[] = [];
  for (const instanceType of instanceTypes) {
    if (!requirements.intersects(instanceType.requirements)) continue;
    if (!fits(requests, instanceType.allocatable)) continue;
    for (const offering of launchableOfferings(instanceType.offerings, requirements)) {
      const key = {
        capacityType: offering.capacityType,
        instanceType: instanceType.name,
        zone: offering.zone,
      };
      out.push({ instanceType, offering, key });
    }
  }
  return out.sort(
    (a, b) =>
      a.offering.price - b.offering.price ||
      rank(a.key.capacityType) - rank(b.key.capacityType) ||
      compareText(a.key.instanceType, b.key.instanceType) ||
      compareText(a.key.zone, b.key.zone),
  );
}
