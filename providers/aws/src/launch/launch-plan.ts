import { CapacityTypes, Labels } from '@nodewright/core/apis';
import { type InstanceType, type Offering, truncateInstanceTypes } from '@nodewright/core/cloudprovider';
import {
  fits,
  type NodeSelectorRequirementInput,
  Requirement,
  type Requirements,
  type ResourceList,
  ResourceNames,
} from '@nodewright/core/scheduling';
import type { ZonalSubnet } from './subnets.js';

/** CreateFleet accepts at most this many instance types per request (as Karpenter). */
export const MaxFleetInstanceTypes = 60;

/** An AMI the NodeClass resolved, with the instance requirements it suits. */
export interface PlanAmi {
  readonly id: string;
  readonly requirements: readonly NodeSelectorRequirementInput[];
}

/** What a launch decision is made from. */
export interface LaunchPlanInput {
  readonly requirements: Requirements;
  readonly requests: ResourceList;
  readonly instanceTypes: readonly InstanceType[];
  /** The subnet each zone launches into (most free IPs). */
  readonly subnets: ReadonlyMap<string, ZonalSubnet>;
  /** In preference order (newest first, as the NodeClass status lists them). */
  readonly amis: readonly PlanAmi[];
}

/** One fleet override: an instance type in a zone's subnet, with its price rank. */
export interface PlannedOverride {
  readonly instanceType: string;
  readonly zone: string;
  readonly subnetId: string;
  readonly price: number;
  /** 0 = try first; follows price, then instance type, then zone. */
  readonly priority: number;
}

/** The instance types that share one launch template (same AMI and pod limit). */
export interface PlannedGroup {
  readonly imageId: string;
  readonly maxPods: number | undefined;
  readonly overrides: PlannedOverride[];
}

export type LaunchPlan =
  | {
      readonly ok: true;
      readonly capacityType: string;
      /** Kept instance types, cheapest first. */
      readonly instanceTypes: InstanceType[];
      readonly groups: PlannedGroup[];
    }
  | { readonly ok: false; readonly reason: string; readonly insufficientCapacity: boolean };

/**
 * Whether the claim allows the offering and it has a subnet. Offerings may carry labels the
 * claim never constrains (`topology.k8s.aws/zone-id`), which core's `isOfferingCompatible`
 * refuses unless they are core well-known labels; only keys the claim does constrain (zone and
 * capacity type among them) can rule an offering out.
 */
function launchable(
  o: Offering,
  requirements: Requirements,
  subnets: ReadonlyMap<string, ZonalSubnet>,
): boolean {
  return o.available && subnets.has(o.zone) && requirements.intersects(o.requirements);
}

function allows(requirements: Requirements, capacityType: string): boolean {
  const r = requirements.get(Labels.CapacityType);
  return r === undefined || r.has(capacityType);
}

function cheapest(
  t: InstanceType,
  capacityType: string,
  req: Requirements,
  subnets: ReadonlyMap<string, ZonalSubnet>,
): number {
  let best = Number.POSITIVE_INFINITY;
  for (const o of t.offerings) {
    if (o.capacityType === capacityType && o.price < best && launchable(o, req, subnets)) best = o.price;
  }
  return best;
}

/**
 * Decides what one CreateFleet asks for: the instance types that satisfy the claim's
 * requirements and fit its requests; spot when the claim allows it and a spot offering is
 * available, else on-demand; spot types dearer than the cheapest on-demand one dropped (as
 * upstream, so spot never costs more than on-demand would); the cheapest 60 kept when minValues
 * still holds; each type with the first AMI whose requirements it meets, grouped by AMI and pod
 * limit (one launch template each); one override per type and zone with a subnet.
 */
export function planLaunch(input: LaunchPlanInput): LaunchPlan {
  const { requirements, subnets } = input;
  if (subnets.size === 0) {
    return {
      ok: false,
      reason: 'no subnet of the EC2NodeClass has free IP addresses',
      insufficientCapacity: false,
    };
  }
  const withAmi: { type: InstanceType; ami: PlanAmi }[] = [];
  for (const type of input.instanceTypes) {
    if (!requirements.intersects(type.requirements) || !fits(input.requests, type.allocatable)) continue;
    const ami = input.amis.find((a) => amiSuits(a, type));
    if (ami !== undefined) withAmi.push({ type, ami });
  }
  if (withAmi.length === 0) {
    return {
      ok: false,
      reason: 'no instance type satisfies the requirements, fits the requests and has a suitable AMI',
      insufficientCapacity: false,
    };
  }
  const hasOffering = (ct: string) =>
    allows(requirements, ct) &&
    withAmi.some(({ type }) => cheapest(type, ct, requirements, subnets) < Infinity);
  const capacityType = hasOffering(CapacityTypes.Spot)
    ? CapacityTypes.Spot
    : hasOffering(CapacityTypes.OnDemand)
      ? CapacityTypes.OnDemand
      : undefined;
  if (capacityType === undefined) {
    return {
      ok: false,
      reason: 'every offering the requirements allow is unavailable',
      insufficientCapacity: true,
    };
  }
  const narrowed = requirements.copy().add(Requirement.create(Labels.CapacityType, 'In', [capacityType]));
  let candidates = withAmi.filter(({ type }) => cheapest(type, capacityType, narrowed, subnets) < Infinity);
  if (capacityType === CapacityTypes.Spot && allows(requirements, CapacityTypes.OnDemand)) {
    const onDemand = Math.min(
      ...withAmi.map(({ type }) => cheapest(type, CapacityTypes.OnDemand, requirements, subnets)),
    );
    const kept = candidates.filter(({ type }) => cheapest(type, capacityType, narrowed, subnets) <= onDemand);
    if (kept.length > 0) candidates = kept;
  }
  const truncated = truncateInstanceTypes(
    candidates.map((c) => c.type),
    narrowed,
    MaxFleetInstanceTypes,
  );
  if (!truncated.ok) return { ok: false, reason: truncated.reason, insufficientCapacity: false };
  const amiOf = new Map(candidates.map((c) => [c.type.name, c.ami]));
  const flat: Omit<PlannedOverride, 'priority'>[] = [];
  for (const type of truncated.types) {
    for (const o of type.offerings) {
      if (o.capacityType !== capacityType || !launchable(o, narrowed, subnets)) continue;
      const subnet = subnets.get(o.zone);
      if (subnet !== undefined)
        flat.push({ instanceType: type.name, zone: o.zone, subnetId: subnet.id, price: o.price });
    }
  }
  flat.sort(
    (a, b) => a.price - b.price || compare(a.instanceType, b.instanceType) || compare(a.zone, b.zone),
  );
  const typeByName = new Map(truncated.types.map((t) => [t.name, t]));
  const groups = new Map<string, PlannedGroup>();
  flat.forEach((o, priority) => {
    const type = typeByName.get(o.instanceType)!;
    const imageId = amiOf.get(o.instanceType)!.id;
    const maxPods = podsOf(type);
    const key = `${imageId}/${maxPods ?? ''}`;
    let group = groups.get(key);
    if (group === undefined) {
      group = { imageId, maxPods, overrides: [] };
      groups.set(key, group);
    }
    group.overrides.push({ ...o, priority });
  });
  return { ok: true, capacityType, instanceTypes: truncated.types, groups: [...groups.values()] };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function podsOf(type: InstanceType): number | undefined {
  const pods = type.capacity.get(ResourceNames.Pods);
  return pods === undefined ? undefined : pods.toNumber();
}

function amiSuits(ami: PlanAmi, type: InstanceType): boolean {
  for (const r of ami.requirements) {
    const own = type.requirements.get(r.key);
    const req = Requirement.fromNodeSelectorRequirement(r);
    if (own === undefined) {
      if (!req.admitsAbsence()) return false;
    } else if (!own.intersects(req)) return false;
  }
  return true;
}
