/**
 * Counts the cluster's asynchronous work in flight (watch deliveries, garbage collection) so
 * tests and simulations can wait until everything triggered so far has run. Collects the
 * errors that work raised, since nobody awaits it directly.
 */
export class WorkTracker {
  #pending = 0;
  #waiters: (() => void)[] = [];
  #errors: unknown[] = [];

  get busy(): boolean {
    return this.#pending > 0;
  }

  /** Runs `task` in a microtask, counted until it (and the promise it returns) settles. */
  schedule(task: () => void | Promise<void>): void {
    this.#pending++;
    queueMicrotask(() => {
      let result: void | Promise<void>;
      try {
        result = task();
      } catch (err) {
        this.fail(err);
        this.#done();
        return;
      }
      if (result instanceof Promise) {
        result.catch((err: unknown) => this.fail(err)).finally(() => this.#done());
      } else {
        this.#done();
      }
    });
  }

  /** Records an error raised by background work. */
  fail(err: unknown): void {
    this.#errors.push(err);
  }

  /** Resolves when no work is in flight. */
  idle(): Promise<void> {
    if (this.#pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Returns and clears the errors collected so far. */
  takeErrors(): unknown[] {
    const errors = this.#errors;
    this.#errors = [];
    return errors;
  }

  #done(): void {
    this.#pending--;
    if (this.#pending > 0) return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }
}
