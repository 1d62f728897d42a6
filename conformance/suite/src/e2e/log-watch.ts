import type { LogEntry } from './json-lines.js';

/** What a LogWatch reads from the controller it watches. */
export interface WatchedLog {
  /** Names it in errors, e.g. `controller e2e-a`. */
  readonly name: string;
  entries(): readonly LogEntry[];
  /** How it ended (`exited (code 0)`), or undefined while it runs. */
  ended(): string | undefined;
  /** Its last output, for an error message ('' when there is none). */
  tail(): string;
}

/**
 * Waits for log lines of one controller, a process or a Pod alike: `waitFor` settles on the
 * first entry a predicate accepts, or fails when the controller ends first or the time runs
 * out. The owner calls `wake` whenever entries arrive or it ends.
 */
export class LogWatch {
  readonly #log: WatchedLog;
  readonly #waiters = new Set<() => void>();

  constructor(log: WatchedLog) {
    this.#log = log;
  }

  /** Re-checks every pending wait. */
  wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }

  waitFor(match: (entry: LogEntry) => boolean, what: string, timeoutMs: number): Promise<LogEntry> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.#log.entries().find(match);
        if (found) {
          done();
          resolve(found);
          return true;
        }
        const ended = this.#log.ended();
        if (ended !== undefined) {
          done();
          reject(new Error(`${this.#log.name} ${ended} before ${what}${this.#log.tail()}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${this.#log.name}: no ${what} within ${timeoutMs} ms${this.#log.tail()}`));
      }, timeoutMs);
      const waiter = (): void => {
        check();
      };
      const done = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
      };
      if (!check()) this.#waiters.add(waiter);
    });
  }
}
