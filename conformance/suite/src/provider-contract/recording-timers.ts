import type { Cancel, Timers } from '@nodewright/core/clock';

/**
 * Timers that remember every delay asked of them, then defer to the real ones: given to a
 * provider that waits on its injected timers, `delays()` is what its backoff decided.
 */
export class RecordingTimers implements Timers {
  readonly #inner: Timers;
  readonly #delays: number[] = [];

  constructor(inner: Timers) {
    this.#inner = inner;
  }

  after(ms: number, fn: () => void): Cancel {
    this.#delays.push(ms);
    return this.#inner.after(ms, fn);
  }

  /** Every delay asked for so far, oldest first. */
  delays(): readonly number[] {
    return this.#delays;
  }
}
