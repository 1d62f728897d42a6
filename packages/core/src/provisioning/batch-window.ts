/** How long a batch of pending pods is collected before one provisioning decision. */
export interface BatchOptions {
  /** The batch closes this long after the last pod arrived. Default 1 s (BATCH_IDLE_DURATION). */
  readonly idleMs?: number;
  /** ...or this long after it opened, whichever comes first. Default 10 s (BATCH_MAX_DURATION). */
  readonly maxMs?: number;
}

/** Karpenter's batch durations. */
const DefaultBatchIdleMs = 1_000;
const DefaultBatchMaxMs = 10_000;

/** An open batch: when its first and its latest pod arrived (ms since the epoch). */
export interface OpenBatch {
  readonly openedAt: number;
  readonly lastAt: number;
}

/** A batch window: open, or closed (undefined). */
export type BatchWindow = OpenBatch | undefined;

/** Options with the defaults filled in. */
export function resolveBatchOptions(options: BatchOptions = {}): Required<BatchOptions> {
  return { idleMs: options.idleMs ?? DefaultBatchIdleMs, maxMs: options.maxMs ?? DefaultBatchMaxMs };
}

/** The window after a pod arrives at `now`: opens a closed one, extends an open one. */
export function observePod(window: BatchWindow, now: number): OpenBatch {
  return window === undefined ? { openedAt: now, lastAt: now } : { openedAt: window.openedAt, lastAt: now };
}

/** When an open batch closes: idle after its last pod, or at its maximum, whichever is first. */
export function closesAt(window: OpenBatch, options: BatchOptions = {}): number {
  const { idleMs, maxMs } = resolveBatchOptions(options);
  return Math.min(window.lastAt + idleMs, window.openedAt + maxMs);
}

/** Whether an open batch is due at `now` (a closed window never is). */
export function isDue(window: BatchWindow, now: number, options: BatchOptions = {}): boolean {
  return window !== undefined && now >= closesAt(window, options);
}
