import { setTimeout as delay } from 'node:timers/promises';

export interface WaitOptions {
  readonly timeoutMs: number;
  readonly intervalMs: number;
  /** What is awaited, for the timeout error. */
  readonly what: string;
  /** Injected for tests; default the wall clock and timers. */
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<unknown>;
}

/**
 * Calls `probe` until `done` holds for its result, then returns that result. Usable where
 * `expect.poll` is not (hooks).
 *
 * @throws after `timeoutMs`, naming `what` and the last result.
 */
export async function waitUntil<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  options: WaitOptions,
): Promise<T> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? delay;
  const deadline = now() + options.timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (now() >= deadline) {
      throw new Error(
        `timed out after ${options.timeoutMs} ms waiting for ${options.what}; last saw ${JSON.stringify(value)}`,
      );
    }
    await sleep(options.intervalMs);
  }
}
