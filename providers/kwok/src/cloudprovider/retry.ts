import { backoffDelay, sleep, type Timers } from '@nodewright/core/clock';
import { isKubeError, isTooManyRequests } from '@nodewright/core/kube';

/** How cluster calls are retried when the API server throttles or fails. */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 6. */
  readonly attempts?: number;
  /** Delay before the first retry; doubles per retry. Default 100 ms. */
  readonly baseMs?: number;
  /** Upper bound of one delay. Default 5 s. */
  readonly maxMs?: number;
}

export const DefaultRetry: Required<RetryOptions> = { attempts: 6, baseMs: 100, maxMs: 5_000 };

/** Whether a failed cluster call may succeed when repeated: throttled (429) or a server error (5xx). */
export function isRetryable(err: unknown): boolean {
  return isTooManyRequests(err) || (isKubeError(err) && err.code >= 500);
}

/** The delay before retry `n` (1-based): the base doubled per retry, at most max; a server's Retry-After wins when longer. */
export function retryDelay(options: Required<RetryOptions>, n: number, err: unknown): number {
  const backoff = backoffDelay({ baseMs: options.baseMs, maxMs: options.maxMs }, n);
  const retryAfter = isKubeError(err) ? (err.details?.retryAfterSeconds ?? 0) * 1000 : 0;
  return Math.min(options.maxMs, Math.max(backoff, retryAfter));
}

/**
 * Runs `call`, repeating it after an exponential backoff (on the injected timers) while it fails
 * with a retryable error; the last error is thrown once the attempts are spent. Non-retryable
 * errors are thrown at once. `onRetry` sees each retried failure (for logs).
 */
export async function withRetries<T>(
  timers: Timers,
  call: () => Promise<T>,
  options: RetryOptions = {},
  onRetry?: (err: unknown, attempt: number, delayMs: number) => void,
): Promise<T> {
  const o = { ...DefaultRetry, ...options };
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (!isRetryable(err) || attempt >= o.attempts) throw err;
      const delay = retryDelay(o, attempt, err);
      onRetry?.(err, attempt, delay);
      await sleep(timers, delay);
    }
  }
}
