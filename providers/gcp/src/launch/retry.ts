import { backoffDelay, sleep, type Timers } from '@nodewright/core/clock';
import { GceApiError } from '../sdk/compute-api.js';

/** How calls are retried when Compute Engine throttles or fails. */
export interface RetryPolicy {
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

/** Five attempts, waiting 500 ms, 1 s, 2 s, 4 s: GCE's rate limits refill per second and minute. */
export const DefaultRetryPolicy: RetryPolicy = { attempts: 5, baseDelayMs: 500, maxDelayMs: 10_000 };

/** Whether GCE asks to come back later: 429, 403 rateLimitExceeded/userRateLimitExceeded, 5xx. */
export function isRetryable(err: unknown): boolean {
  if (!(err instanceof GceApiError)) return false;
  if (err.status === 429 || err.status >= 500) return true;
  return err.status === 403 && /rateLimitExceeded$/i.test(err.reason ?? '');
}

/** The wait before retry `n` (1-based): base x 2^(n-1), capped (core's one backoff rule). */
export function retryDelayMs(policy: RetryPolicy, n: number): number {
  return backoffDelay({ baseMs: policy.baseDelayMs, maxMs: policy.maxDelayMs }, n);
}

/**
 * Runs `call`, retrying a retryable failure with exponential backoff on the injected timers;
 * rethrows the last failure, or the first that is not retryable.
 */
export async function withRetry<T>(timers: Timers, policy: RetryPolicy, call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (attempt >= policy.attempts || !isRetryable(err)) throw err;
      await sleep(timers, retryDelayMs(policy, attempt));
    }
  }
}
