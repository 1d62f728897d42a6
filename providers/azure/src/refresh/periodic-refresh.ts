import type { Cancel, Timers } from '@nodewright/core/clock';

/**
 * Runs `load` at `start()` and every interval on the injected Timers; `refresh()` runs it now,
 * concurrent calls sharing one run. `load` is expected to log and swallow its own failures.
 */
export class PeriodicRefresh {
  #cancel: Cancel | undefined;
  #loading: Promise<void> | undefined;

  constructor(
    private readonly timers: Timers,
    private readonly intervalMs: number,
    private readonly load: () => Promise<void>,
  ) {}

  /** Loads now and schedules the next loads. Idempotent. */
  start(): void {
    if (this.#cancel !== undefined) return;
    void this.refresh();
    this.#schedule();
  }

  stop(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }

  refresh(): Promise<void> {
    this.#loading ??= this.load().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  #schedule(): void {
    this.#cancel = this.timers.after(this.intervalMs, () => {
      void this.refresh();
      this.#schedule();
    });
  }
}
