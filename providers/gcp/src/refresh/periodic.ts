import type { Cancel, Timers } from '@nodewright/core/clock';

/**
 * Runs `load` now and then every `intervalMs` on the injected timers, one run at a time. `load`
 * must not throw (it logs and keeps what it had); `ready()` resolves after the first run.
 */
export class Periodic {
  readonly #timers: Timers;
  readonly #intervalMs: number;
  readonly #load: () => Promise<void>;
  #cancel: Cancel | undefined;
  #first: Promise<void> | undefined;
  #stopped = false;

  constructor(timers: Timers, intervalMs: number, load: () => Promise<void>) {
    this.#timers = timers;
    this.#intervalMs = intervalMs;
    this.#load = load;
  }

  /** Starts the loop; idempotent. */
  start(): void {
    if (this.#first !== undefined) return;
    this.#stopped = false;
    this.#first = this.#run();
  }

  /** Resolves once the first load has finished (starting the loop if needed). */
  ready(): Promise<void> {
    this.start();
    return this.#first!;
  }

  stop(): void {
    this.#stopped = true;
    this.#cancel?.();
    this.#cancel = undefined;
  }

  async #run(): Promise<void> {
    await this.#load();
    if (this.#stopped) return;
    this.#cancel = this.#timers.after(this.#intervalMs, () => void this.#run());
  }
}
