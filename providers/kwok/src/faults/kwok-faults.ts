import { type OfferingKey, UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';

/**
 * Faults the fake cloud injects, switched at run time (tests, the contract suite) or from the
 * provider's settings (`insufficientCapacity`). KWOK has no capacity of its own to run out of,
 * so "no capacity" is whatever this says.
 */
export class KwokFaults {
  readonly #noCapacity = new Set<string>();

  constructor(insufficientCapacity: Iterable<OfferingKey> = []) {
    for (const o of insufficientCapacity) this.insufficientCapacity(o);
  }

  /** From now on, launches of this offering fail for lack of capacity. */
  insufficientCapacity(offering: OfferingKey): void {
    this.#noCapacity.add(UnavailableOfferingsCache.key(offering));
  }

  /** Launches of this offering succeed again. */
  restoreCapacity(offering: OfferingKey): void {
    this.#noCapacity.delete(UnavailableOfferingsCache.key(offering));
  }

  hasCapacity(offering: OfferingKey): boolean {
    return !this.#noCapacity.has(UnavailableOfferingsCache.key(offering));
  }
}

// Kept in its own module so the plug-in's settings descriptions load without the cache above.
export { parseOfferingList } from './offering-list.js';
