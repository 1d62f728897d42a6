import { CapacityTypes, Labels } from '@nodewright/core/apis';
import type { InstanceType, Offering } from '@nodewright/core/cloudprovider';
import { fits, type Requirements, type ResourceList } from '@nodewright/core/scheduling';

/** One way to launch: a size and one of its offerings. */
export interface Candidate {
  readonly instanceType: InstanceType;
  readonly offering: Offering;
}

/** What the claim allows, and why nothing when nothing. */
export type Candidates =
  | { readonly ok: true; readonly candidates: Candidate[] }
  | { readonly ok: false; readonly reason: string; readonly insufficientCapacity: boolean };

const allows = (requirements: Requirements, capacityType: string) =>
  requirements.get(Labels.CapacityType)?.has(capacityType) ?? true;

/**
 * The offerings a launch tries, in order: of the sizes the claim's requirements allow and whose
 * allocatable fits its requests, the available offerings it allows, spot before on-demand when
 * both are allowed (as Karpenter prefers spot), cheapest first, then by size and zone so equal
 * prices order the same way on every run.
 */
export function launchCandidates(
  requirements: Requirements,
  requests: ResourceList,
  instanceTypes: readonly InstanceType[],
): Candidates {
  const compatible = instanceTypes.filter(
    (t) => requirements.intersects(t.requirements) && fits(requests, t.allocatable),
  );
  if (compatible.length === 0) {
    return {
      ok: false,
      reason: 'no VM size satisfies the requirements and fits the requests',
      insufficientCapacity: false,
    };
  }
  const candidates: Candidate[] = [];
  for (const t of compatible) {
    for (const o of t.offerings) {
      if (o.available && allows(requirements, o.capacityType) && requirements.intersects(o.requirements)) {
        candidates.push({ instanceType: t, offering: o });
      }
    }
  }
  if (candidates.length === 0) {
    return {
      ok: false,
      reason: 'every offering the requirements allow is unavailable',
      insufficientCapacity: true,
    };
  }
  const rank = (c: Candidate) => (c.offering.capacityType === CapacityTypes.Spot ? 0 : 1);
  candidates.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      a.offering.price - b.offering.price ||
      (a.instanceType.name < b.instanceType.name ? -1 : a.instanceType.name > b.instanceType.name ? 1 : 0) ||
      (a.offering.zone < b.offering.zone ? -1 : a.offering.zone > b.offering.zone ? 1 : 0),
  );
  return { ok: true, candidates };
}
