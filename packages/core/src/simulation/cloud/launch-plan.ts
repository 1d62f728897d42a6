import type { InstanceType } from '../../cloudprovider/instance-type.js';
import { isOfferingCompatible, type Offering } from '../../cloudprovider/offering.js';
import type { OfferingKey } from '../../cloudprovider/unavailable-offerings.js';
import type { Requirements } from '../../scheduling/requirements/requirements.js';
import { fits } from '../../scheduling/resources/fits.js';
import type { ResourceList } from '../../scheduling/resources/resource-list.js';

/** One offering a launch may try, with the type it belongs to. */
export interface LaunchCandidate {
  readonly instanceType: InstanceType;
  readonly offering: Offering;
  readonly key: OfferingKey;
}

/** Capacity types in the order a price tie falls back through them (reservations are prepaid). */
const CAPACITY_TYPE_RANK: Readonly<Record<string, number>> = { reserved: 0, spot: 1, 'on-demand': 2 };

function rank(capacityType: string): number {
  return CAPACITY_TYPE_RANK[capacityType] ?? 3;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Every offering a claim may launch on, cheapest first: the types whose requirements agree with
 * the claim's on every key both define (instance type, arch, ...) and whose allocatable fits the
 * claim's requests; of those, the offerings that are available, allowed by the claim's zone and
 * capacity-type requirements, and not `unavailable` (the provider's cache and reservations).
 * Ties in price go reserved, spot, on-demand, then by type name and zone, so the order is total.
 */
export function launchCandidates(
  catalog: readonly InstanceType[],
  requirements: Requirements,
  requests: ResourceList,
  unavailable: (key: OfferingKey) => boolean,
): LaunchCandidate[] {
  const out: LaunchCandidate[] = [];
  for (const instanceType of catalog) {
    if (!requirements.intersects(instanceType.requirements)) continue;
    if (!fits(requests, instanceType.allocatable)) continue;
    for (const offering of instanceType.offerings) {
      if (!offering.available || !isOfferingCompatible(offering, requirements)) continue;
      const key = {
        capacityType: offering.capacityType,
        instanceType: instanceType.name,
        zone: offering.zone,
      };
      if (unavailable(key)) continue;
      out.push({ instanceType, offering, key });
    }
  }
  out.sort(
    (a, b) =>
      a.offering.price - b.offering.price ||
      rank(a.key.capacityType) - rank(b.key.capacityType) ||
      compareText(a.key.instanceType, b.key.instanceType) ||
      compareText(a.key.zone, b.key.zone),
  );
  return out;
}
