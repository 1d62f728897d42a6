/**
 * Exponential backoff bounds, in milliseconds: the delay after the first failure, multiplied by
 * `factor` (default 2) per further consecutive failure, never more than `maxMs`.
 */
export interface BackoffPolicy {
  /** Delay after the first failure. */
  readonly baseMs: number;
  /** Upper bound of the delay. */
  readonly maxMs: number;
  /** Growth per consecutive failure; default 2. */
  readonly factor?: number;
  /**
   * The share of each delay drawn at random, 0..1 (default 0: none). At 0.5 a delay of 2 s is
   * anything from 1 s to 2 s, so many clients that failed together (every watch of every
   * replica when the API server went away) do not all come back in the same instant.
   */
  readonly jitter?: number;
}

/**
 * controller-runtime's default item backoff (client-go's ItemExponentialFailureRateLimiter):
 * 5 ms doubling per consecutive failure, capped at 1000 s. Its token bucket (10 qps, burst
 * 100) is left out: a simulation must not be throttled by wall-clock rates.
 */
export const ControllerBackoff: BackoffPolicy = Object.freeze({ baseMs: 5, maxMs: 1_000_000 });

/**
 * A failing watch: half a second, doubling, at most 30 s; quick after a blip, gentle on a server
 * that is down; jittered by half, so the watches of a controller (and of its replicas) that an
 * API server outage broke together reconnect spread out rather than at one instant.
 */
export const WatchBackoff: BackoffPolicy = Object.freeze({ baseMs: 500, maxMs: 30_000, jitter: 0.5 });

/**
 * The delay before retry number `failures` (1 for the first failure; 0 or less: no delay).
 * `random` (0 <= r < 1) draws the jitter of a policy that has one; a policy without jitter
 * never calls it, so simulations stay deterministic.
 */
export function backoffDelay(
  policy: BackoffPolicy,
  failures: number,
  random: () => number = Math.random,
): number {
  if (failures <= 0) return 0;
  // factor^exp overflows to Infinity past ~1000; the cap makes that harmless.
  const delay = Math.min(policy.maxMs, policy.baseMs * (policy.factor ?? 2) ** (failures - 1));
  const jitter = policy.jitter ?? 0;
  return jitter > 0 ? delay * (1 - jitter * random()) : delay;
}

/** Counts consecutive failures per key and turns them into delays. */
export class ItemBackoff {
  readonly #policy: BackoffPolicy;
  readonly #failures = new Map<string, number>();

  constructor(policy: BackoffPolicy = ControllerBackoff) {
    this.#policy = policy;
  }

  /** Records a failure of `key` and returns how long to wait before retrying it. */
  next(key: string): number {
    const failures = (this.#failures.get(key) ?? 0) + 1;
    this.#failures.set(key, failures);
    return backoffDelay(this.#policy, failures);
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
