import type { Cancel, Timers } from '../../clock/timers.js';

/** What a WorkQueue reports as it changes, for metrics. */
export interface WorkQueueObserver {
  /** A key became ready (was not already waiting to run). */
  added?(key: string): void;
  /** The number of ready keys changed. */
  depth?(depth: number): void;
  /** A key was handed out after waiting `ms` since it became ready. */
  waited?(ms: number): void;
}

/**
 * client-go's work queue semantics, single-threaded:
 * - a key is queued at most once (adding a queued key is a no-op);
 * - a key being processed is never handed out again until `done`; adding it meanwhile marks it
 *   dirty, and `done` queues it once more, so no change is lost and no key runs twice at once;
 * - `addAfter` delays through the injected Timers, keeping only the earliest pending delay
 *   per key, so a ManualTimers clock drives requeues exactly.
 * Ready keys are handed out in FIFO order.
 */
export class WorkQueue {
  readonly #timers: Timers;
  readonly #observer: WorkQueueObserver;
  readonly #ready: string[] = [];
  /** Keys that must run (again): queued, or added while processing. */
  readonly #dirty = new Set<string>();
  readonly #processing = new Set<string>();
  readonly #delayed = new Map<string, { at: number; cancel: Cancel }>();
  /** When each ready key became ready. */
  readonly #readySince = new Map<string, number>();
  #now: () => number;
  #shutDown = false;
  /** Called whenever a key becomes ready to hand out. */
  onReady: () => void = () => {};

  constructor(timers: Timers, now: () => number, observer: WorkQueueObserver = {}) {
    this.#timers = timers;
    this.#now = now;
    this.#observer = observer;
  }

  /** Queues `key` now (dropping any delayed add of it that is later anyway). */
  add(key: string): void {
    if (this.#shutDown) return;
    this.#cancelDelayed(key);
    if (this.#dirty.has(key)) return;
    this.#dirty.add(key);
    if (this.#processing.has(key)) return;
    this.#ready.push(key);
    this.#readySince.set(key, this.#now());
    this.#observer.added?.(key);
    this.#observer.depth?.(this.#ready.length);
    this.onReady();
  }

  /** Queues `key` after `ms`; an earlier pending delay for it wins, a later one is replaced. */
  addAfter(key: string, ms: number): void {
    if (this.#shutDown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = this.#now() + ms;
    const pending = this.#delayed.get(key);
    if (pending !== undefined && pending.at <= at) return;
    pending?.cancel();
    const cancel = this.#timers.after(ms, () => {
      if (this.#delayed.get(key)?.cancel !== cancel) return;
      this.#delayed.delete(key);
      this.add(key);
    });
    this.#delayed.set(key, { at, cancel });
  }

  /** The next ready key, now marked as processing; undefined when none is ready. */
  get(): string | undefined {
    const key = this.#ready.shift();
    if (key === undefined) return undefined;
    this.#dirty.delete(key);
    this.#processing.add(key);
    this.#observer.depth?.(this.#ready.length);
    const since = this.#readySince.get(key);
    this.#readySince.delete(key);
    if (since !== undefined) this.#observer.waited?.(Math.max(0, this.#now() - since));
    return key;
  }

  /** Ends processing of `key`; queues it again if it was added meanwhile. */
  done(key: string): void {
    this.#processing.delete(key);
    if (this.#shutDown || !this.#dirty.has(key)) return;
    this.#ready.push(key);
    this.#readySince.set(key, this.#now());
    this.#observer.added?.(key);
    this.#observer.depth?.(this.#ready.length);
    this.onReady();
  }

  /** Keys ready to hand out. */
  get length(): number {
    return this.#ready.length;
  }

  /** Keys handed out and not yet done. */
  get processing(): number {
    return this.#processing.size;
  }

  /** Keys waiting for a delayed add. */
  get delayed(): number {
    return this.#delayed.size;
  }

  /** When `key` is next due from a delayed add (ms since epoch), if one is pending. */
  delayedUntil(key: string): number | undefined {
    return this.#delayed.get(key)?.at;
  }

  /** Drops every queued and delayed key and refuses new ones. */
  shutDown(): void {
    this.#shutDown = true;
    for (const { cancel } of this.#delayed.values()) cancel();
    this.#delayed.clear();
    this.#ready.length = 0;
    this.#readySince.clear();
    this.#dirty.clear();
    this.#observer.depth?.(0);
  }

  #cancelDelayed(key: string): void {
    const pending = this.#delayed.get(key);
    if (pending === undefined) return;
    pending.cancel();
    this.#delayed.delete(key);
  }
}
