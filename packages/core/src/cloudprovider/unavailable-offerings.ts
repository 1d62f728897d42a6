import type { Clock } from '../clock/clock.js';

/** Identifies one offering: a capacity type of an instance type in a zone. */
export interface OfferingKey {
  readonly capacityType: string;
  readonly instanceType: string;
  readonly zone: string;
}

interface Entry {
  readonly expiresAt: number;
  readonly reason: string;
}

/**
 * Offerings the cloud recently refused for lack of capacity. Providers mark an offering when a
 * launch fails with insufficient capacity (or a spot interruption hits it) and consult the cache
 * in getInstanceTypes, so the next solve routes around it until the entry expires.
 *
 * Expiry is lazy against the injected clock: no timers, so simulations stay exact.
 */
export class UnavailableOfferingsCache {
  readonly #clock: Clock;
  readonly #defaultTtlMs: number;
  readonly #entries = new Map<string, Entry>();
  #generation = 0;

  constructor(clock: Clock, defaultTtlMs = 3 * 60_000) {
    this.#clock = clock;
    this.#defaultTtlMs = defaultTtlMs;
  }

  static key(o: OfferingKey): string {
    return `${o.capacityType}:${o.instanceType}:${o.zone}`;
  }

  /** Marks an offering unavailable for `ttlMs` (the provider's cloud-specific window). */
  markUnavailable(o: OfferingKey, reason: string, ttlMs = this.#defaultTtlMs): void {
    this.#entries.set(UnavailableOfferingsCache.key(o), { expiresAt: this.#clock.now() + ttlMs, reason });
    this.#generation++;
  }

  isUnavailable(o: OfferingKey): boolean {
    return this.reason(o) !== undefined;
  }

  /** Why the offering is unavailable, or undefined when it may be launched. */
  reason(o: OfferingKey): string | undefined {
    const key = UnavailableOfferingsCache.key(o);
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#clock.now()) {
      this.#entries.delete(key);
      this.#generation++;
      return undefined;
    }
    return entry.reason;
  }

  /**
   * Changes whenever the set of unavailable offerings may have changed; providers key their
   * instance-type caches on it so a mark is seen by the very next solve.
   */
  generation(): number {
    this.#evictExpired();
    return this.#generation;
  }

  /** Entries still in force, for metrics and `explain`. */
  entries(): Array<OfferingKey & { reason: string; expiresAt: number }> {
    this.#evictExpired();
    return [...this.#entries].map(([key, e]) => {
      const [capacityType = '', instanceType = '', zone = ''] = key.split(':');
      return { capacityType, instanceType, zone, reason: e.reason, expiresAt: e.expiresAt };
    });
  }

  #evictExpired(): void {
    const now = this.#clock.now();
    for (const [key, e] of this.#entries) {
      if (e.expiresAt <= now) {
        this.#entries.delete(key);
        this.#generation++;
      }
    }
  }
}
