/** Exponential backoff between retries of a failing watch. */
export interface BackoffPolicy {
  /** Delay before the first retry, in ms. */
  readonly initialMs: number;
  /** Upper bound of any delay, in ms. */
  readonly maxMs: number;
  /** Growth per consecutive failure. */
  readonly factor: number;
}

/** Half a second, doubling, at most 30 s: quick after a blip, gentle on a server that is down. */
export const DEFAULT_BACKOFF: BackoffPolicy = Object.freeze({ initialMs: 500, maxMs: 30_000, factor: 2 });

/** The delay before retry number `failures` (1 for the first failure). */
export function backoffDelay(policy: BackoffPolicy, failures: number): number {
  const exponent = Math.max(0, failures - 1);
  return Math.min(policy.maxMs, policy.initialMs * policy.factor ** exponent);
}
