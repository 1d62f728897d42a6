/** Per-key exponential backoff bounds, in milliseconds. */
export interface BackoffOptions {
  /** Delay after the first failure. */
  readonly baseMs: number;
  /** Upper bound of the delay. */
  readonly maxMs: number;
}

/**
 * controller-runtime's default item backoff (client-go's ItemExponentialFailureRateLimiter):
 * 5 ms doubling per consecutive failure, capped at 1000 s. Its token bucket (10 qps, burst
 * 100) is left out: a simulation must not be throttled by wall-clock rates.
 */
export const DefaultBackoff: BackoffOptions = { baseMs: 5, maxMs: 1_000_000 };

/** The delay before retry number `failures` (1 for the first failure). */
export function backoffDelay(options: BackoffOptions, failures: number): number {
  if (failures <= 0) return 0;
  // 2^exp overflows to Infinity past ~1000; the cap makes that harmless.
  const delay = options.baseMs * 2 ** (failures - 1);
  return Math.min(options.maxMs, delay);
}

/** Counts consecutive failures per key and turns them into delays. */
export class ItemBackoff {
  readonly #options: BackoffOptions;
  readonly #failures = new Map<string, number>();

  constructor(options: BackoffOptions = DefaultBackoff) {
    this.#options = options;
  }

  /** Records a failure of `key` and returns how long to wait before retrying it. */
  next(key: string): number {
    const failures = (this.#failures.get(key) ?? 0) + 1;
    this.#failures.set(key, failures);
    return backoffDelay(this.#options, failures);
  }

  /** Consecutive failures recorded for `key`. */
  failures(key: string): number {
    return this.#failures.get(key) ?? 0;
  }

  /** Resets `key` after a success. */
  forget(key: string): void {
    this.#failures.delete(key);
  }
}
