import type { Clock } from '../../clock/clock.js';
import type { Cancel, Timers } from '../../clock/timers.js';
import type { InterruptionNotice, InterruptionSource } from '../../cloudprovider/cloud-provider.js';

/** How the simulated queue delivers notices; defaults follow SQS as Karpenter uses it. */
export interface InterruptionQueueOptions {
  readonly clock: Clock;
  readonly timers: Timers;
  /** A received, unacknowledged notice is redelivered after this long. Default 30 s. */
  readonly visibilityTimeoutMs?: number;
  /** Long poll: an empty `receive` waits this long for a notice. Default 20 s; 0 answers at once. */
  readonly waitMs?: number;
  /** Most notices one `receive` returns. Default 10. */
  readonly maxNotices?: number;
}

interface Entry {
  readonly notice: InterruptionNotice;
  visibleAt: number;
}

interface Waiter {
  readonly resolve: (notices: InterruptionNotice[]) => void;
  cancel: Cancel;
}

/**
 * An InterruptionSource backed by an in-memory queue with SQS's delivery semantics: `receive`
 * long-polls, hands out up to `maxNotices` visible notices and hides them for the visibility
 * timeout; a notice stays queued until acknowledged, so a controller that dies before acting
 * sees it again.
 */
export class SimulatedInterruptionQueue implements InterruptionSource {
  readonly #clock: Clock;
  readonly #timers: Timers;
  readonly #visibilityMs: number;
  readonly #waitMs: number;
  readonly #max: number;
  readonly #entries = new Map<string, Entry>();
  readonly #waiters: Waiter[] = [];
  #seq = 0;

  constructor(options: InterruptionQueueOptions) {
    this.#clock = options.clock;
    this.#timers = options.timers;
    this.#visibilityMs = options.visibilityTimeoutMs ?? 30_000;
    this.#waitMs = options.waitMs ?? 20_000;
    this.#max = options.maxNotices ?? 10;
  }

  /** Queues a notice (its `id` is assigned here) and wakes a waiting `receive`. */
  publish(notice: Omit<InterruptionNotice, 'id'>): InterruptionNotice {
    const full: InterruptionNotice = { ...notice, id: `sim-interruption-${++this.#seq}` };
    this.#entries.set(full.id, { notice: full, visibleAt: this.#clock.now() });
    const waiter = this.#waiters.shift();
    if (waiter !== undefined) {
      waiter.cancel();
      waiter.resolve(this.#take());
    }
    return full;
  }

  /** Notices not yet acknowledged, in publication order. */
  unacknowledged(): InterruptionNotice[] {
    return [...this.#entries.values()].map((e) => e.notice);
  }

  receive(signal?: AbortSignal): Promise<InterruptionNotice[]> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const ready = this.#take();
    if (ready.length > 0 || this.#waitMs <= 0) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, cancel: () => {} };
      const leave = () => {
        const at = this.#waiters.indexOf(waiter);
        if (at >= 0) this.#waiters.splice(at, 1);
      };
      const onAbort = () => {
        waiter.cancel();
        leave();
        reject(signal?.reason);
      };
      const cancelTimer = this.#timers.after(this.#waitMs, () => {
        signal?.removeEventListener('abort', onAbort);
        leave();
        resolve(this.#take());
      });
      waiter.cancel = () => {
        cancelTimer();
        signal?.removeEventListener('abort', onAbort);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  async acknowledge(notice: InterruptionNotice): Promise<void> {
    this.#entries.delete(notice.id);
  }

  #take(): InterruptionNotice[] {
    const now = this.#clock.now();
    const out: InterruptionNotice[] = [];
    for (const entry of this.#entries.values()) {
      if (out.length >= this.#max) break;
      if (entry.visibleAt > now) continue;
      entry.visibleAt = now + this.#visibilityMs;
      out.push(entry.notice);
    }
    return out;
  }
}
