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
  const signal = parent === undefined ? own.signal : AbortSignal.any([parent, own.signal]);
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
    return await Promise.race([work(signal), deadline]);
  } finally {
    cancel?.();
  }
}
