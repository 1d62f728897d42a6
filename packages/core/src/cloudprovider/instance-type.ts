import { Quantity } from '../scheduling/quantity/quantity.js';
import type { Requirements } from '../scheduling/requirements/requirements.js';
import {
  addResources,
  type ResourceList,
  ResourceNames,
  subtractResources,
} from '../scheduling/resources/resource-list.js';
import { cheapestLaunchPrice, type Offering } from './offering.js';

/** What the node keeps for itself; allocatable = capacity minus all three. */
export interface InstanceTypeOverhead {
  readonly kubeReserved: ResourceList;
  readonly systemReserved: ResourceList;
  readonly evictionThreshold: ResourceList;
}

/**
 * A shape of machine a provider can launch, with every way to buy it. Requirements define every
 * well-known label (instance type, arch, os, zones, capacity types, ...) so pods can be matched
 * before any node exists. Types whose offerings are all unavailable are still listed, so an
 * unschedulable pod can be told why.
 */
export interface InstanceType {
  readonly name: string;
  readonly requirements: Requirements;
  readonly offerings: readonly Offering[];
  readonly capacity: ResourceList;
  readonly overhead: InstanceTypeOverhead;
  /** capacity - overhead (hugepages also come off memory); never negative. */
  readonly allocatable: ResourceList;
}

export const NO_OVERHEAD: InstanceTypeOverhead = {
  kubeReserved: new Map(),
  systemReserved: new Map(),
  evictionThreshold: new Map(),
};

/** The resources a node of this capacity and overhead can give to pods. */
export function computeAllocatable(capacity: ResourceList, overhead: InstanceTypeOverhead): ResourceList {
  const reserved = addResources(overhead.kubeReserved, overhead.systemReserved, overhead.evictionThreshold);
  let hugepages: ResourceList = new Map();
  for (const [name, q] of capacity) {
    if (name.startsWith('hugepages-'))
      hugepages = addResources(hugepages, new Map([[ResourceNames.Memory, q]]));
  }
  const out = new Map(subtractResources(capacity, addResources(reserved, hugepages)));
  for (const [name, q] of out) if (q.sign() < 0) out.set(name, Quantity.zero(q.format));
  return out;
}

/** Builds an InstanceType, deriving allocatable from capacity and overhead. */
export function newInstanceType(t: {
  name: string;
  requirements: Requirements;
  offerings: readonly Offering[];
  capacity: ResourceList;
  overhead?: InstanceTypeOverhead;
}): InstanceType {
  const overhead = t.overhead ?? NO_OVERHEAD;
  return { ...t, overhead, allocatable: computeAllocatable(t.capacity, overhead) };
}

/**
 * Instance types sorted by their cheapest launchable offering under the requirements (types with
 * none last), then by name, so equal prices order the same way on every run.
 */
export function orderByPrice(types: readonly InstanceType[], requirements: Requirements): InstanceType[] {
  const priced = types.map((t) => ({ t, price: cheapestLaunchPrice(t.offerings, requirements) }));
  priced.sort((a, b) => a.price - b.price || (a.t.name < b.t.name ? -1 : a.t.name > b.t.name ? 1 : 0));
  return priced.map((p) => p.t);
}

/** The outcome of a minValues check over a prefix of instance types. */
export type MinValuesResult =
  | {
      readonly satisfied: true /** How many leading types are needed to meet every minValues. */;
      readonly needed: number;
    }
  | { readonly satisfied: false; readonly key: string; readonly minValues: number; readonly found: number };

/**
 * Whether the types together offer at least `minValues` distinct values for every requirement
 * that sets it, and how long a prefix of the list that takes (so truncation keeps enough).
 */
export function satisfiesMinValues(
  types: readonly InstanceType[],
  requirements: Requirements,
): MinValuesResult {
  const withMin = requirements.list().filter((r) => r.minValues !== undefined);
  if (withMin.length === 0) return { satisfied: true, needed: 0 };
  const seen = withMin.map(() => new Set<string>());
  let needed = 0;
  let met = false;
  for (let i = 0; i < types.length && !met; i++) {
    const t = types[i]!;
    met = true;
    for (const [j, r] of withMin.entries()) {
      const values = t.requirements.get(r.key)?.values;
      if (values !== undefined && t.requirements.get(r.key)?.complement === false) {
        for (const v of values) seen[j]!.add(v);
      }
      if (seen[j]!.size < r.minValues!) met = false;
    }
    needed = i + 1;
  }
  if (met) return { satisfied: true, needed };
  for (const [j, r] of withMin.entries()) {
    if (seen[j]!.size < r.minValues!) {
      return { satisfied: false, key: r.key, minValues: r.minValues!, found: seen[j]!.size };
    }
  }
  return { satisfied: true, needed };
}

/**
 * The cheapest `max` types (Karpenter keeps 600 per NodeClaim), failing when the kept prefix no
 * longer meets minValues. The error names the key, so the claim's reason can say which.
 */
export function truncateInstanceTypes(
  types: readonly InstanceType[],
  requirements: Requirements,
  max: number,
): { ok: true; types: InstanceType[] } | { ok: false; reason: string } {
  const ordered = orderByPrice(types, requirements);
  const kept = ordered.slice(0, max);
  const check = satisfiesMinValues(kept, requirements);
  if (!check.satisfied) {
    return {
      ok: false,
      reason: `minValues requirement not met: ${check.key} needs ${check.minValues} distinct values, ${kept.length === 1 ? 'the one instance type offers' : `the cheapest ${kept.length} instance types offer`} ${check.found}`,
    };
  }
  return { ok: true, types: kept };
}
