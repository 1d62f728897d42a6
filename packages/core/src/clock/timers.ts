import type { FakeClock } from './clock.js';

/** Cancels a scheduled callback; calling it after the callback ran is harmless. */
export type Cancel = () => void;

/**
 * Deferred work on the same time base as the injected Clock. Controllers requeue, batchers
 * close windows and caches expire through this, so a simulation can run a day of controller
 * time in seconds by advancing a ManualTimers instead of sleeping.
 */
export interface Timers {
  /** Runs `fn` once, `ms` from now (clamped at 0). */
  after(ms: number, fn: () => void): Cancel;
}

/** setTimeout's longest delay; longer ones would fire after 1 ms. */
const MaxTimeoutMs = 2 ** 31 - 1;

/**
 * Wall-clock timers; unref'd so a pending requeue never keeps the process alive. Delays beyond
 * setTimeout's limit (~24.8 days, e.g. a 720h expireAfter) are waited for in steps.
 */
export class SystemTimers implements Timers {
  after(ms: number, fn: () => void): Cancel {
    let handle: ReturnType<typeof setTimeout> | undefined;
    const arm = (remaining: number) => {
      const step = Math.min(Math.max(0, remaining), MaxTimeoutMs);
      handle = setTimeout(() => (remaining > step ? arm(remaining - step) : fn()), step);
      handle.unref?.();
    };
    arm(ms);
    return () => clearTimeout(handle);
  }
}

interface Pending {
  readonly at: number;
  readonly seq: number;
  readonly fn: () => void;
  cancelled: boolean;
}

/**
 * Timers driven by a FakeClock: nothing fires until `advance`/`runUntil` moves time. Callbacks
 * fire in time order (ties in scheduling order), with the clock set to each one's due time, and
 * `settle` awaited after each so async work it started finishes before time moves on — which is
 * what makes simulations deterministic.
 */
export class ManualTimers implements Timers {
  readonly #clock: FakeClock;
  #queue: Pending[] = [];
  #seq = 0;

  constructor(clock: FakeClock) {
    this.#clock = clock;
  }

  after(ms: number, fn: () => void): Cancel {
    const p: Pending = { at: this.#clock.now() + Math.max(0, ms), seq: this.#seq++, fn, cancelled: false };
    this.#queue.push(p);
    return () => {
      p.cancelled = true;
    };
  }

  /** How many callbacks are waiting. */
  pending(): number {
    this.#queue = this.#queue.filter((p) => !p.cancelled);
    return this.#queue.length;
  }

  /** When the next callback is due, or undefined when none is. */
  nextAt(): number | undefined {
    return this.#next()?.at;
  }

  /** Moves time forward by `ms`, firing everything due on the way. */
  async advance(ms: number, settle: () => Promise<void> = async () => {}): Promise<void> {
    await this.runUntil(this.#clock.now() + ms, settle);
  }

  /** Fires every callback due at or before `until`, then sets the clock to `until`. */
  async runUntil(until: number, settle: () => Promise<void> = async () => {}): Promise<void> {
    await settle();
    for (;;) {
      const next = this.#next();
      if (next === undefined || next.at > until) break;
      this.#queue.splice(this.#queue.indexOf(next), 1);
      if (next.at > this.#clock.now()) this.#clock.set(next.at);
      next.fn();
      await settle();
    }
    if (until > this.#clock.now()) this.#clock.set(until);
  }

  #next(): Pending | undefined {
    let best: Pending | undefined;
    for (const p of this.#queue) {
      if (p.cancelled) continue;
      if (best === undefined || p.at < best.at || (p.at === best.at && p.seq < best.seq)) best = p;
    }
    return best;
  }
}

/** Resolves after `ms` on the given timers; rejects with the signal's reason when aborted. */
export function sleep(timers: Timers, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      cancel();
      reject(signal?.reason);
    };
    const cancel = timers.after(ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
