import { CapacityTypes, Labels } from '../apis/labels.js';
import { Requirement } from '../scheduling/requirements/requirement.js';
import { Requirements } from '../scheduling/requirements/requirements.js';

/**
 * One way to buy an instance type: a capacity type in a zone at a price. Offerings are what
 * the unavailable-offerings cache and the launch decision talk about.
 */
export interface Offering {
  /** Holds at least `topology.kubernetes.io/zone` and `karpenter.sh/capacity-type`. */
  readonly requirements: Requirements;
  readonly zone: string;
  readonly capacityType: string;
  /** Per hour, in the catalog's currency. */
  readonly price: number;
  /** False when the cloud has no capacity for it now, or it has no known price. */
  readonly available: boolean;
  /** For reserved offerings: how many instances the reservation can still start. */
  readonly reservationCapacity?: number;
}

/** Builds an offering whose requirements are derived from its zone and capacity type. */
export function newOffering(o: {
  zone: string;
  capacityType: string;
  price: number;
  available?: boolean;
  reservationCapacity?: number;
  extraRequirements?: readonly Requirement[];
}): Offering {
  const requirements = new Requirements([
    Requirement.create(Labels.Zone, 'In', [o.zone]),
    Requirement.create(Labels.CapacityType, 'In', [o.capacityType]),
    ...(o.extraRequirements ?? []),
  ]);
  return {
    requirements,
    zone: o.zone,
    capacityType: o.capacityType,
    price: o.price,
    available: (o.available ?? true) && Number.isFinite(o.price),
    ...(o.reservationCapacity !== undefined ? { reservationCapacity: o.reservationCapacity } : {}),
  };
}

/**
 * Whether the claim's requirements allow this offering's zone and capacity type. An offering's
 * requirements say where it is (zone, capacity type, and provider keys such as AWS's
 * `topology.k8s.aws/zone-id`); a claim that says nothing about a key accepts any value of it, so
 * only the keys the claim constrains are compared. (Karpenter gets the same effect by registering
 * provider keys as well-known labels, a global this project does not have.)
 */
export function isOfferingCompatible(offering: Offering, requirements: Requirements): boolean {
  const list = offering.requirements.list();
  for (let i = 0; i < list.length; i++) {
    const r = list[i]!;
    const mine = requirements.get(r.key);
    if (mine !== undefined && !mine.intersects(r)) return false;
  }
  return true;
}

export function availableOfferings(offerings: readonly Offering[]): Offering[] {
  return offerings.filter((o) => o.available);
}

/** Offerings that are both available and allowed by the requirements. */
export function launchableOfferings(offerings: readonly Offering[], requirements: Requirements): Offering[] {
  return offerings.filter((o) => o.available && isOfferingCompatible(o, requirements));
}

/** The cheapest offering of the list (ties: first), or undefined for an empty list. */
export function cheapestOffering(offerings: readonly Offering[]): Offering | undefined {
  let best: Offering | undefined;
  for (const o of offerings) if (best === undefined || o.price < best.price) best = o;
  return best;
}

export function mostExpensiveOffering(offerings: readonly Offering[]): Offering | undefined {
  let worst: Offering | undefined;
  for (const o of offerings) if (worst === undefined || o.price > worst.price) worst = o;
  return worst;
}

/** The cheapest available offering the requirements allow, allocation-free. */
export function cheapestLaunchPrice(offerings: readonly Offering[], requirements: Requirements): number {
  let best = Number.POSITIVE_INFINITY;
  for (const o of offerings) {
    if (o.available && o.price < best && isOfferingCompatible(o, requirements)) best = o.price;
  }
  return best;
}

/** Capacity types in the order a launch falls back through them. */
const LAUNCH_ORDER = [CapacityTypes.Reserved, CapacityTypes.Spot, CapacityTypes.OnDemand];

/**
 * The most a launch could cost: the most expensive compatible available offering of the first
 * capacity type (reserved, then spot, then on-demand) that has one. Consolidation compares this
 * against the nodes it would replace, so a replacement is never more expensive than promised.
 */
export function worstLaunchPrice(offerings: readonly Offering[], requirements: Requirements): number {
  for (const capacityType of LAUNCH_ORDER) {
    let worst = Number.NEGATIVE_INFINITY;
    for (const o of offerings) {
      if (o.capacityType === capacityType && o.available && isOfferingCompatible(o, requirements)) {
        if (o.price > worst) worst = o.price;
      }
    }
    if (worst !== Number.NEGATIVE_INFINITY) return worst;
  }
  return Number.POSITIVE_INFINITY;
}
