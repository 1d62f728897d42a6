import type { Timers } from './timers.js';

/**
 * Runs `work` with a signal that aborts when `parent` does or `deadlineMs` passes on `timers`,
 * and rejects with `expired()` at the deadline even when `work` ignores its signal, so a caller
 * never waits past it. Whatever `work` settles with after the deadline is dropped.
 */
export async function withDeadline<T>(
  timers: Timers,
  deadlineMs: number,
  parent: AbortSignal | undefined,
  expired: () => Error,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const own = new AbortController();
  // The parent's abort is forwarded by hand, not through AbortSignal.any: every reconcile runs
  // here, and AbortSignal.any costs a few percent of a simulated day in its bookkeeping.
  const forward = () => own.abort(parent?.reason);
  if (parent?.aborted === true) forward();
  else parent?.addEventListener('abort', forward, { once: true });
  let cancel: (() => void) | undefined;
  const deadline = new Promise<never>((_, reject) => {
    cancel = timers.after(deadlineMs, () => {
      const err = expired();
      // Rejected before the abort, so the deadline wins even against work that rejects the
      // moment its signal aborts.
      reject(err);
      own.abort(err);
    });
  });
  try {
    // race subscribes to both, so a late rejection of abandoned work is handled, not unhandled.
    return await Promise.race([work(own.signal), deadline]);
  } finally {
    cancel?.();
    parent?.removeEventListener('abort', forward);
  }
}
