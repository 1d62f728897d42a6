import { Labels, type NodeClaim } from '@nodewright/core/apis';
import { type InstanceType, launchableOfferings, type Offering } from '@nodewright/core/cloudprovider';
import { fits, type Requirements, type ResourceList } from '@nodewright/core/scheduling';

/** Labels every instance type must define (the suite's reading of "well-known"). */
export const RequiredInstanceTypeLabels: readonly string[] = [
  Labels.Arch,
  Labels.OS,
  Labels.InstanceType,
  Labels.Zone,
  Labels.CapacityType,
];

/**
 * What is wrong with a provider's instance types, one message per problem naming the type (and
 * offering): a well-known label missing from the requirements, an instance-type requirement that
 * does not admit the type's own name, allocatable above capacity, no offerings, an offering
 * without zone or capacity-type requirements (or requirements disagreeing with its fields), a zone
 * outside the type's zones, a price that is not positive.
 */
export function instanceTypeProblems(types: readonly InstanceType[]): string[] {
  const problems: string[] = [];
  if (types.length === 0) problems.push('no instance types');
  for (const t of types) {
    for (const key of RequiredInstanceTypeLabels) {
      if (!t.requirements.has(key)) problems.push(`${t.name}: requirements lack ${key}`);
    }
    const own = t.requirements.get(Labels.InstanceType);
    if (own !== undefined && !own.has(t.name))
      problems.push(`${t.name}: ${Labels.InstanceType} does not admit ${t.name}`);
    for (const [resource, allocatable] of t.allocatable) {
      const capacity = t.capacity.get(resource);
      if (capacity === undefined) problems.push(`${t.name}: allocatable ${resource} has no capacity`);
      else if (allocatable.cmp(capacity) > 0)
        problems.push(`${t.name}: allocatable ${resource} ${allocatable} exceeds capacity ${capacity}`);
    }
    if (t.offerings.length === 0) problems.push(`${t.name}: no offerings`);
    for (const o of t.offerings) problems.push(...offeringProblems(t, o));
  }
  return problems;
}

function offeringProblems(t: InstanceType, o: Offering): string[] {
  const where = `${t.name} offering ${o.capacityType}/${o.zone}`;
  const out: string[] = [];
  const zone = o.requirements.get(Labels.Zone);
  const capacityType = o.requirements.get(Labels.CapacityType);
  if (zone === undefined || !zone.has(o.zone))
    out.push(`${where}: requirements do not pin ${Labels.Zone} ${o.zone}`);
  if (capacityType === undefined || !capacityType.has(o.capacityType))
    out.push(`${where}: requirements do not pin ${Labels.CapacityType} ${o.capacityType}`);
  if (o.zone === '' || o.capacityType === '') out.push(`${where}: zone or capacity type empty`);
  const typeZones = t.requirements.get(Labels.Zone);
  if (typeZones !== undefined && !typeZones.has(o.zone))
    out.push(`${where}: zone not among the type's zones`);
  if (!(o.price > 0) || !Number.isFinite(o.price)) out.push(`${where}: price ${o.price} is not positive`);
  return out;
}

/** An offering with the type it belongs to. */
export interface PricedOffering {
  readonly instanceType: string;
  readonly zone: string;
  readonly capacityType: string;
  readonly price: number;
}

/**
 * The offerings a claim with these requirements and requests may launch on, cheapest first
 * (the contract's definition of "compatible available": the type's requirements intersect the
 * claim's, its allocatable fits the requests, the offering is available and allowed).
 */
export function compatibleOfferings(
  types: readonly InstanceType[],
  requirements: Requirements,
  requests: ResourceList,
): PricedOffering[] {
  const out: PricedOffering[] = [];
  for (const t of types) {
    if (!requirements.intersects(t.requirements) || !fits(requests, t.allocatable)) continue;
    for (const o of launchableOfferings(t.offerings, requirements)) {
      out.push({ instanceType: t.name, zone: o.zone, capacityType: o.capacityType, price: o.price });
    }
  }
  return out.sort((a, b) => a.price - b.price);
}

/** The offering a hydrated NodeClaim's labels name, priced from `types`; undefined if none matches. */
export function offeringOfClaim(
  types: readonly InstanceType[],
  claim: NodeClaim,
): PricedOffering | undefined {
  const labels = claim.metadata.labels ?? {};
  const t = types.find((x) => x.name === labels[Labels.InstanceType]);
  const o = t?.offerings.find(
    (x) => x.zone === labels[Labels.Zone] && x.capacityType === labels[Labels.CapacityType],
  );
  if (t === undefined || o === undefined) return undefined;
  return { instanceType: t.name, zone: o.zone, capacityType: o.capacityType, price: o.price };
}

/**
 * Requirement keys of the claim that the hydrated labels break: a label present whose value the
 * requirement does not admit, or absent where the requirement needs one. Only keys the provider
 * resolves or the claim carries are judged (core adds the rest at registration).
 */
export function unsatisfiedRequirements(
  requirements: Requirements,
  labels: Readonly<Record<string, string>>,
): string[] {
  const out: string[] = [];
  for (const r of requirements) {
    const value = labels[r.key];
    if (value === undefined ? !r.admitsAbsence() : !r.has(value)) {
      out.push(`${r.key}=${value ?? '(absent)'} does not satisfy ${r.describe()}`);
    }
  }
  return out;
}
