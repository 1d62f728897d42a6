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

/**
 * Parses the `insufficientCapacity` setting: comma-separated `capacityType:instanceType:zone`
 * offerings (the unavailable-offerings cache's key form).
 * @throws Error naming the setting and the malformed entry.
 */
export function parseOfferingList(text: string, setting = 'insufficientCapacity'): OfferingKey[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((entry) => {
      const parts = entry.split(':');
      if (parts.length !== 3 || parts.some((p) => p === '')) {
        throw new Error(
          `setting ${setting}: "${entry}" is not an offering; write capacityType:instanceType:zone, e.g. spot:c-4x-amd64-linux:test-zone-a`,
        );
      }
      const [capacityType = '', instanceType = '', zone = ''] = parts;
      return { capacityType, instanceType, zone };
    });
}
