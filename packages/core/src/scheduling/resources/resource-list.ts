import { type QuantityFormat, QuantityFormats } from '../quantity/format.js';
import { QuantityError } from '../quantity/parse.js';
import { Quantity, type QuantityInput } from '../quantity/quantity.js';

/** Resource names the core treats specially; any other name is an extended resource. */
export const ResourceNames = {
  CPU: 'cpu',
  Memory: 'memory',
  Pods: 'pods',
  EphemeralStorage: 'ephemeral-storage',
} as const;

/** Resource name -> exact quantity (Kubernetes' v1.ResourceList). A missing name means zero. */
export type ResourceList = ReadonlyMap<string, Quantity>;

/** A Kubernetes resource map as it appears in JSON or YAML: `{cpu: "100m", "nvidia.com/gpu": 1}`. */
export type ResourceListInput =
  | Readonly<Record<string, QuantityInput>>
  | ReadonlyMap<string, QuantityInput>
  | ResourceList;

/** A resource map entry that is not a quantity. */
export class ResourceListError extends Error {
  override readonly name = 'ResourceListError';
  readonly resource: string;
  constructor(resource: string, cause: QuantityError) {
    super(`resource ${JSON.stringify(resource)}: ${cause.message}`, { cause });
    this.resource = resource;
  }
}

/** The format resources of this name are usually written in; used when a value has lost its own. */
export function defaultFormatFor(resource: string): QuantityFormat {
  return resource === ResourceNames.Memory ||
    resource === ResourceNames.EphemeralStorage ||
    resource === 'storage' ||
    resource.startsWith('hugepages-')
    ? QuantityFormats.BinarySI
    : QuantityFormats.DecimalSI;
}

/**
 * Parses a Kubernetes resource map. Absent input is the empty list.
 * @throws ResourceListError naming the resource whose value is not a quantity.
 */
export function parseResourceList(input: ResourceListInput | null | undefined): ResourceList {
  const out = new Map<string, Quantity>();
  if (input === null || input === undefined) return out;
  const entries: Iterable<readonly [string, QuantityInput]> =
    input instanceof Map ? input.entries() : Object.entries(input as Readonly<Record<string, QuantityInput>>);
  for (const [name, value] of entries) {
    try {
      out.set(name, Quantity.parse(value));
    } catch (err) {
      if (err instanceof QuantityError) throw new ResourceListError(name, err);
      throw err;
    }
  }
  return out;
}

/** Canonical strings by resource name, names sorted as Kubernetes serialises maps. */
export function formatResourceList(list: ResourceList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...list.keys()].sort()) out[name] = list.get(name)!.toString();
  return out;
}

/** A compact one-line rendering for logs and reasons, e.g. `{"cpu":"100m","memory":"1Gi"}`. */
export function describeResources(list: ResourceList): string {
  return JSON.stringify(formatResourceList(list));
}

/** The per-name sum of all lists (Karpenter's Merge). */
export function addResources(...lists: readonly ResourceList[]): ResourceList {
  const out = new Map<string, Quantity>();
  for (const list of lists) {
    for (const [name, q] of list) {
      const current = out.get(name);
      out.set(name, current === undefined ? q : current.add(q));
    }
  }
  return out;
}

/**
 * lhs - rhs for the names lhs holds; names only rhs holds are ignored, as Karpenter's Subtract
 * does, so subtracting usage from limits leaves unlimited resources unlimited.
 */
export function subtractResources(lhs: ResourceList, rhs: ResourceList): ResourceList {
  const out = new Map<string, Quantity>();
  for (const [name, q] of lhs) {
    const r = rhs.get(name);
    out.set(name, r === undefined ? q : q.sub(r));
  }
  return out;
}

/** The per-name maximum over all lists (a name missing from a list does not count as zero). */
export function maxResources(...lists: readonly ResourceList[]): ResourceList {
  const out = new Map<string, Quantity>();
  for (const list of lists) {
    for (const [name, q] of list) {
      const current = out.get(name);
      out.set(name, current === undefined ? q : current.max(q));
    }
  }
  return out;
}

/** Every quantity multiplied by an integer. */
export function scaleResources(list: ResourceList, factor: number | bigint): ResourceList {
  const out = new Map<string, Quantity>();
  for (const [name, q] of list) out.set(name, q.mul(factor));
  return out;
}

const ZERO = Quantity.zero();

/** The quantity for a name, zero when absent. */
export function quantityOf(list: ResourceList, name: string): Quantity {
  return list.get(name) ?? ZERO;
}

/** Equal by value with missing names read as zero (formats ignored). */
export function resourcesEqual(a: ResourceList, b: ResourceList): boolean {
  for (const [name, q] of a) if (!q.equals(quantityOf(b, name))) return false;
  for (const [name, q] of b) if (!a.has(name) && !q.isZero()) return false;
  return true;
}

/** True when every quantity is zero (or the list is empty). */
export function isZeroResources(list: ResourceList): boolean {
  for (const q of list.values()) if (!q.isZero()) return false;
  return true;
}
