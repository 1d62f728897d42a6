import type { Clock } from '../clock/clock.js';
import type { Cancel, Timers } from '../clock/timers.js';
import { type BatchOptions, type BatchWindow, closesAt, isDue, observePod } from './batch-window.js';

/**
 * A batch window on a clock, without timers: `trigger()` when a pod arrives, ask `dueInMs()`
 * and `close()` when it is due. The provisioner controller drives it through its reconcile's
 * `requeueAfterMs`, so the runtime's timers (ManualTimers in tests) decide when it wakes.
 */
export class Batcher {
  readonly #clock: Clock;
  readonly #options: BatchOptions;
  #window: BatchWindow;

  constructor(clock: Clock, options: BatchOptions = {}) {
    this.#clock = clock;
    this.#options = options;
  }

  /** A pod arrived now: opens the batch or extends it. */
  trigger(): void {
    this.#window = observePod(this.#window, this.#clock.now());
  }

  isOpen(): boolean {
    return this.#window !== undefined;
  }

  /** When the open batch was opened, if one is. */
  openedAt(): number | undefined {
    return this.#window?.openedAt;
  }

  /** Milliseconds until the open batch closes (0 when due); undefined when none is open. */
  dueInMs(): number | undefined {
    if (this.#window === undefined) return undefined;
    return Math.max(0, closesAt(this.#window, this.#options) - this.#clock.now());
  }

  isDue(): boolean {
    return isDue(this.#window, this.#clock.now(), this.#options);
  }

  /** Ends the batch: the next trigger opens a new one. */
  close(): void {
    this.#window = undefined;
  }
}

/**
 * A batch window driven by Timers, for loops outside the controller runtime: `trigger()` when a
 * pod arrives; `onClose` runs once the batch closes (idle or maximum), after which the next
 * trigger opens a new batch. One timer is armed at a time, for the current closing time.
 */
export class TimedBatcher {
  readonly #batcher: Batcher;
  readonly #timers: Timers;
  readonly #onClose: () => void;
  #cancel: Cancel | undefined;
  #stopped = false;

  constructor(clock: Clock, timers: Timers, onClose: () => void, options: BatchOptions = {}) {
    this.#batcher = new Batcher(clock, options);
    this.#timers = timers;
    this.#onClose = onClose;
  }

  trigger(): void {
    if (this.#stopped) return;
    this.#batcher.trigger();
    this.#arm();
  }

  isOpen(): boolean {
    return this.#batcher.isOpen();
  }

  /** Cancels the timer; an open batch never closes. */
  stop(): void {
    this.#stopped = true;
    this.#cancel?.();
    this.#cancel = undefined;
  }

  #arm(): void {
    this.#cancel?.();
    const wait = this.#batcher.dueInMs();
    if (wait === undefined) return;
    this.#cancel = this.#timers.after(wait, () => {
      this.#cancel = undefined;
      if (!this.#batcher.isDue()) {
        this.#arm();
        return;
      }
      this.#batcher.close();
      this.#onClose();
    });
  }
}
