import type { Clock } from '../../clock/clock.js';
import type { EventRecorder, PublishedEvent } from './event-recorder.js';

/** How long an event with dedupe values keeps its twins away unless it says otherwise (Karpenter's 2 minutes). */
export const DefaultEventDedupeMs = 120_000;

/**
 * Publishes an event only when no event of the same reason and dedupe values (the involved
 * object's uid, mostly) was published within the last event's `dedupe.timeoutMs`, whatever the
 * messages; then only when its `rateLimiter`, if any, has a token. Karpenter's event recorder
 * does the same, so a pod still waiting is not told it was nominated at every provisioning pass
 * and a busy cluster's apiserver is not flooded. Events without dedupe values always pass.
 */
export class DedupingEventRecorder implements EventRecorder {
  readonly #inner: EventRecorder;
  readonly #clock: Clock;
  /** Dedupe key -> until when its twins are dropped (ms). */
  readonly #until = new Map<string, number>();
  #sweepAt = 1_024;

  constructor(inner: EventRecorder, clock: Clock) {
    this.#inner = inner;
    this.#clock = clock;
  }

  publish(event: PublishedEvent): Promise<void> {
    if (event.dedupe !== undefined && event.dedupe.values.length > 0) {
      const now = this.#clock.now();
      const key = `${event.reason.toLowerCase()}-${event.dedupe.values.join('-')}`;
      const until = this.#until.get(key);
      if (until !== undefined && until > now) return Promise.resolve();
      this.#until.set(key, now + (event.dedupe.timeoutMs ?? DefaultEventDedupeMs));
      this.#sweep(now);
    }
    if (event.rateLimiter !== undefined && !event.rateLimiter.tryAccept()) return Promise.resolve();
    return this.#inner.publish(event);
  }

  flush(): Promise<void> {
    return this.#inner.flush?.() ?? Promise.resolve();
  }

  /** Forgets expired keys once the map has doubled since the last sweep, so it stays bounded. */
  #sweep(now: number): void {
    if (this.#until.size < this.#sweepAt) return;
    for (const [key, until] of this.#until) if (until <= now) this.#until.delete(key);
    this.#sweepAt = Math.max(1_024, this.#until.size * 2);
  }
}

/**
 * A token bucket on an injected clock: `ratePerSecond` tokens a second up to `burst`, one
 * taken per accepted call (client-go's token bucket rate limiter, which Karpenter puts on its
 * Nominated events: 5 a second, bursts of 10).
 */
export class TokenBucket {
  readonly #ratePerMs: number;
  readonly #burst: number;
  readonly #clock: Clock;
  #tokens: number;
  #at: number;

  constructor(ratePerSecond: number, burst: number, clock: Clock) {
    this.#ratePerMs = ratePerSecond / 1000;
    this.#burst = burst;
    this.#clock = clock;
    this.#tokens = burst;
    this.#at = clock.now();
  }

  /** Takes a token if one is there. */
  tryAccept(): boolean {
    const now = this.#clock.now();
    this.#tokens = Math.min(this.#burst, this.#tokens + Math.max(0, now - this.#at) * this.#ratePerMs);
    this.#at = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}
