/**
 * Injected answer delays of one mock, keyed by what the mock calls its operations (an EC2
 * action, an ARM handler, a Compute method). Shared by the three clouds' fault controllers so
 * each one's `latency`/`latencyNext`/`latencyOf` mean the same thing.
 *
 * A call's wait is, in order: a pending `next` delay for its key (counted off per call), the
 * key's standing delay, the standing delay for every key (`'*'`), else 0.
 */
export class LatencyFaults {
  readonly #standing = new Map<string, number>();
  readonly #next = new Map<string, { readonly ms: number; remaining: number }>();

  /** Every later call of `key` (or of every key, for `'*'`) waits `ms`. */
  always(key: string, ms: number): void {
    this.#standing.set(key, ms);
  }

  /** The next `count` calls of `key` wait `ms`; the calls after them do not. */
  next(key: string, ms: number, count: number): void {
    this.#next.set(key, { ms, remaining: count });
  }

  /** The wait of this call of `key`; counts off a pending `next` delay. */
  of(key: string): number {
    const next = this.#next.get(key);
    if (next !== undefined && next.remaining > 0) {
      next.remaining--;
      return next.ms;
    }
    return this.#standing.get(key) ?? this.#standing.get('*') ?? 0;
  }

  clear(): void {
    this.#standing.clear();
    this.#next.clear();
  }
}
