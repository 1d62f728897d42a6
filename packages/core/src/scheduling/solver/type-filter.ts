import { cheapestLaunchPrice } from '../../cloudprovider/offering.js';
import type { Requirement } from '../requirements/requirement.js';
import { AllowUndefinedWellKnownLabels, type Requirements } from '../requirements/requirements.js';
import { hasLaunchableOffering, type Pool, type PoolType, typeCompatible } from './pools.js';

/**
 * Which of a NodePool's types are compatible with some requirements and have a launchable offering
 * under them. Only the keys the types or their offerings define can change the answer, so results
 * are cached per NodePool under a key built from just those requirements.
 */
export class TypeFilters {
  readonly #keys: readonly string[];
  readonly #offeringKeys: readonly string[];
  readonly #filters = new Map<string, Uint8Array>();
  readonly #prices = new Map<string, LaunchInfo>();
  readonly #names = new WeakMap<Requirement, string>();

  constructor(types: readonly PoolType[]) {
    const keys = new Set<string>();
    const offeringKeys = new Set<string>();
    for (const t of types) {
      for (const k of t.type.requirements.keys()) keys.add(k);
      for (const o of t.type.offerings) for (const k of o.requirements.keys()) offeringKeys.add(k);
    }
    for (const k of offeringKeys) keys.add(k);
    this.#keys = [...keys].sort();
    this.#offeringKeys = [...offeringKeys].sort();
  }

  /** 1 per pool type that is compatible with the requirements and launchable under them. */
  filter(pool: Pool, r: Requirements): Uint8Array {
    const key = this.#signature(r, this.#keys);
    let f = this.#filters.get(key);
    if (f === undefined) {
      f = new Uint8Array(pool.types.length);
      for (const t of pool.types) {
        if (typeCompatible(t.type, r) && hasLaunchableOffering(t.type.offerings, r)) f[t.index] = 1;
      }
      this.#filters.set(key, f);
    }
    return f;
  }

  /**
   * Per pool type, the cheapest launchable offering price and the capacity types launchable under
   * the requirements, shared by every claim with the same zone and capacity-type constraints.
   */
  launchInfo(r: Requirements): LaunchInfo {
    const key = this.#signature(r, this.#offeringKeys);
    let p = this.#prices.get(key);
    if (p === undefined) {
      p = new LaunchInfo(r, this.#size);
      this.#prices.set(key, p);
    }
    return p;
  }

  #size = 0;

  /** Must be called once with the pool's type count before {@link prices}. */
  sized(count: number): this {
    this.#size = count;
    return this;
  }

  #signature(r: Requirements, keys: readonly string[]): string {
    let s = '';
    for (const k of keys) {
      const req = r.get(k);
      s += req === undefined ? '-|' : `${this.#name(req)}|`;
    }
    return s;
  }

  /** An exact, canonical spelling of what a requirement admits. */
  #name(req: Requirement): string {
    let n = this.#names.get(req);
    if (n === undefined) {
      n = `${req.complement ? '!' : ''}${req.admitsAbsence() ? '?' : ''}${req.gte ?? ''}~${req.lte ?? ''}[${req.sortedValues().join('\u0000')}]`;
      this.#names.set(req, n);
    }
    return n;
  }
}

/** Launch facts per pool type under one set of offering constraints, computed on first use. */
export class LaunchInfo {
  readonly #requirements: Requirements;
  readonly #prices: Float64Array;
  readonly #capacityTypes: (readonly string[] | undefined)[];

  constructor(requirements: Requirements, size: number) {
    this.#requirements = requirements;
    this.#prices = new Float64Array(size).fill(Number.NaN);
    this.#capacityTypes = new Array(size);
  }

  /** The cheapest available offering the requirements allow (Infinity if none). */
  price(t: PoolType): number {
    let p = this.#prices[t.index]!;
    if (Number.isNaN(p)) {
      p = cheapestLaunchPrice(t.type.offerings, this.#requirements);
      this.#prices[t.index] = p;
    }
    return p;
  }

  /** Pool type indices by cheapest launchable price, then name (orderByPrice's order). */
  order(types: readonly PoolType[]): Int32Array {
    if (this.#order === undefined) {
      const idx = types.map((t) => t.index);
      idx.sort((a, b) => {
        const x = types[a]!;
        const y = types[b]!;
        return (
          this.price(x) - this.price(y) ||
          (x.type.name < y.type.name ? -1 : x.type.name > y.type.name ? 1 : 0)
        );
      });
      this.#order = Int32Array.from(idx);
    }
    return this.#order;
  }

  #order: Int32Array | undefined;

  /** Capacity types of the available offerings the requirements allow. */
  capacityTypes(t: PoolType): readonly string[] {
    let c = this.#capacityTypes[t.index];
    if (c === undefined) {
      const set = new Set<string>();
      for (const o of t.type.offerings) {
        if (o.available && this.#requirements.isCompatible(o.requirements, AllowUndefinedWellKnownLabels))
          set.add(o.capacityType);
      }
      c = [...set];
      this.#capacityTypes[t.index] = c;
    }
    return c;
  }
}
