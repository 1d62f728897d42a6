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
  done: boolean;
}

/** Whether `a` fires before `b`: earlier due time, ties in scheduling order. */
function before(a: Pending, b: Pending): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

/**
 * Timers driven by a FakeClock: nothing fires until `advance`/`runUntil` moves time. Callbacks
 * fire in time order (ties in scheduling order), with the clock set to each one's due time, and
 * `settle` awaited after each so async work it started finishes before time moves on — which is
 * what makes simulations deterministic.
 *
 * The queue is a binary heap; a cancelled callback stays in it until it reaches the top, so a
 * long simulation that arms and cancels many timers (every requeue does) pays a logarithm per
 * timer rather than a scan of every timer ever cancelled.
 */
export class ManualTimers implements Timers {
  readonly #clock: FakeClock;
  readonly #heap: Pending[] = [];
  #seq = 0;
  #live = 0;
  #fired = 0;

  constructor(clock: FakeClock) {
    this.#clock = clock;
  }

  after(ms: number, fn: () => void): Cancel {
    const p: Pending = { at: this.#clock.now() + Math.max(0, ms), seq: this.#seq++, fn, done: false };
    this.#push(p);
    this.#live++;
    return () => {
      if (p.done) return;
      p.done = true;
      this.#live--;
    };
  }

  /** How many callbacks have fired so far (for benchmarks). */
  get fired(): number {
    return this.#fired;
  }

  /** How many callbacks are waiting. */
  pending(): number {
    return this.#live;
  }

  /** When the next callback is due, or undefined when none is. */
  nextAt(): number | undefined {
    return this.#peek()?.at;
  }

  /** Moves time forward by `ms`, firing everything due on the way. */
  async advance(ms: number, settle: () => Promise<void> = async () => {}): Promise<void> {
    await this.runUntil(this.#clock.now() + ms, settle);
  }

  /** Fires every callback due at or before `until`, then sets the clock to `until`. */
  async runUntil(until: number, settle: () => Promise<void> = async () => {}): Promise<void> {
    await settle();
    for (;;) {
      const next = this.#peek();
      if (next === undefined || next.at > until) break;
      this.#pop();
      next.done = true;
      this.#live--;
      this.#fired++;
      if (next.at > this.#clock.now()) this.#clock.set(next.at);
      next.fn();
      await settle();
    }
    if (until > this.#clock.now()) this.#clock.set(until);
  }

  /** The next live callback, dropping cancelled ones from the top. */
  #peek(): Pending | undefined {
    while (this.#heap.length > 0 && this.#heap[0]!.done) this.#pop();
    return this.#heap[0];
  }

  #push(p: Pending): void {
    const heap = this.#heap;
    let i = heap.push(p) - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(p, heap[parent]!)) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = p;
  }

  #pop(): void {
    const heap = this.#heap;
    const last = heap.pop()!;
    if (heap.length === 0) return;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= heap.length) break;
      const r = l + 1;
      const child = r < heap.length && before(heap[r]!, heap[l]!) ? r : l;
      if (!before(heap[child]!, last)) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
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
