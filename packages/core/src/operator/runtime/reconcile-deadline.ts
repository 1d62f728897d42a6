import { withDeadline } from '../../clock/deadline.js';
import type { Timers } from '../../clock/timers.js';

/**
 * How long one reconcile may run when neither its controller nor the manager says otherwise:
 * long enough for a launch that waits on a slow cloud call (whose own deadlines retry within
 * it), short enough that a reconcile stuck on a call that never answers frees its worker.
 */
export const DefaultReconcileDeadlineMs = 5 * 60_000;

/** A reconcile that ran past its deadline and was abandoned (its signal aborted, its result ignored). */
export class ReconcileDeadlineExceeded extends Error {
  override readonly name = 'ReconcileDeadlineExceeded';
  readonly deadlineMs: number;

  constructor(deadlineMs: number) {
    super(`reconcile exceeded its deadline of ${formatSeconds(deadlineMs)} s`);
    this.deadlineMs = deadlineMs;
  }
}

/**
 * Runs `reconcile` with its own signal (aborted when `parent` is, or at the deadline) and
 * settles at the deadline even when the reconcile ignores its signal, so the caller's worker
 * is free again. What an abandoned reconcile later returns or throws is dropped.
 */
export function withReconcileDeadline<T>(
  timers: Timers,
  deadlineMs: number,
  parent: AbortSignal,
  reconcile: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  return withDeadline(timers, deadlineMs, parent, () => new ReconcileDeadlineExceeded(deadlineMs), reconcile);
}

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? String(s) : s.toFixed(3).replace(/0+$/, '');
}
