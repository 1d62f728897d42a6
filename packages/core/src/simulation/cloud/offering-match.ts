import type { OfferingKey } from '../../cloudprovider/unavailable-offerings.js';

/** Selects offerings; an absent field matches every value. */
export interface OfferingMatch {
  readonly capacityType?: string;
  readonly instanceType?: string;
  readonly zone?: string;
}

/** Whether the offering is one the match selects. */
export function matchesOffering(match: OfferingMatch, key: OfferingKey): boolean {
  return (
    (match.capacityType === undefined || match.capacityType === key.capacityType) &&
    (match.instanceType === undefined || match.instanceType === key.instanceType) &&
    (match.zone === undefined || match.zone === key.zone)
  );
}

interface RatePattern {
  readonly segments: readonly [string, string, string];
  readonly wildcards: number;
  readonly text: string;
  readonly rate: number;
}

/**
 * Per-offering probabilities keyed like the unavailable-offerings cache,
 * `capacityType:instanceType:zone`, where any segment may be `*`. The most specific pattern
 * that matches wins (fewest wildcards; ties by the pattern's text, so the choice never depends
 * on key order); an offering no pattern matches has rate 0.
 */
export class OfferingRates {
  readonly #patterns: RatePattern[];

  /** @throws Error for a key that is not three `:`-separated segments or a rate outside [0, 1]. */
  constructor(rates: Readonly<Record<string, number>> = {}) {
    this.#patterns = Object.entries(rates).map(([text, rate]) => {
      const parts = text.split(':');
      if (parts.length !== 3) {
        throw new Error(`offering rate key ${JSON.stringify(text)} must be capacityType:instanceType:zone`);
      }
      if (!(rate >= 0 && rate <= 1)) {
        throw new Error(`offering rate for ${JSON.stringify(text)} must be a probability, got ${rate}`);
      }
      const segments = parts as [string, string, string];
      return { segments, wildcards: segments.filter((s) => s === '*').length, text, rate };
    });
    this.#patterns.sort(
      (a, b) => a.wildcards - b.wildcards || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0),
    );
  }

  rateFor(key: OfferingKey): number {
    const values = [key.capacityType, key.instanceType, key.zone];
    for (const p of this.#patterns) {
      if (p.segments.every((s, i) => s === '*' || s === values[i])) return p.rate;
    }
    return 0;
  }
}
