import type { Logger } from 'pino';
import { type KubeObject, referenceTo } from '../../kube/object.js';
import type { ClusterPort } from '../../kube/port.js';

/** One event about an object, as a controller publishes it. */
export interface PublishedEvent {
  readonly object: KubeObject;
  readonly type: 'Normal' | 'Warning';
  /** UpperCamelCase, from a constants file of reasons. */
  readonly reason: string;
  readonly message: string;
  /**
   * Drop this event while one of the same reason and `values` was published within
   * `timeoutMs` (default 2 minutes), whatever its message: Karpenter's dedupe. Honoured by
   * DedupingEventRecorder.
   */
  readonly dedupe?: { readonly values: readonly string[]; readonly timeoutMs?: number };
  /** Drop this event when the limiter, shared by the events it limits, has no token left. */
  readonly rateLimiter?: { tryAccept(): boolean };
}

/** Publishes core/v1 Events; failures are logged, never thrown (events are best effort). */
export interface EventRecorder {
  publish(event: PublishedEvent): Promise<void>;
  /** Resolves once every event published so far has been written (or failed), for recorders that queue. */
  flush?(): Promise<void>;
}

/** How many events ClusterEventRecorder holds unsent before it drops new ones (client-go's broadcaster holds 1,000). */
export const DefaultEventQueueLimit = 1_000;

/**
 * An EventRecorder over the cluster port. Identical events are aggregated by the port (count
 * grows), so republishing the same blocked-drain event every retry is cheap.
 *
 * `publish` only queues: one background sender writes the events in order, one at a time (so
 * the port's aggregation of identical events holds), and a reconcile never waits on the
 * apiserver for them. A pass that nominates thousands of pods used to spend minutes awaiting one
 * Event write per pod on a loaded apiserver, past its reconcile deadline. While more than
 * `queueLimit` events wait, new ones are dropped and counted (a warning at the first drop and
 * every 1,000th), as client-go's event broadcaster drops when its queue is full.
 */
export class ClusterEventRecorder implements EventRecorder {
  readonly #cluster: ClusterPort;
  readonly #logger: Logger;
  readonly #component: string;
  readonly #queueLimit: number;
  readonly #queue: PublishedEvent[] = [];
  #sending: Promise<void> | undefined;
  #dropped = 0;

  /** `component` is the events' `source.component`; default `karpenter`, which tooling filters on. */
  constructor(
    cluster: ClusterPort,
    logger: Logger,
    component = 'karpenter',
    queueLimit = DefaultEventQueueLimit,
  ) {
    this.#cluster = cluster;
    this.#logger = logger;
    this.#component = component;
    this.#queueLimit = queueLimit;
  }

  publish(event: PublishedEvent): Promise<void> {
    if (this.#queue.length >= this.#queueLimit) {
      this.#dropped++;
      if (this.#dropped % 1_000 === 1)
        this.#logger.warn(
          { dropped: this.#dropped, queueLimit: this.#queueLimit, reason: event.reason },
          'event queue full; dropping events',
        );
      return Promise.resolve();
    }
    this.#queue.push(event);
    this.#kick();
    return Promise.resolve();
  }

  #kick(): void {
    if (this.#sending !== undefined) return;
    this.#sending = this.#drain().finally(() => {
      this.#sending = undefined;
      // An event queued after the sender saw the queue empty, before this ran.
      if (this.#queue.length > 0) this.#kick();
    });
  }

  /** Resolves once every event queued so far has been written (or failed). */
  async flush(): Promise<void> {
    while (this.#sending !== undefined) await this.#sending;
  }

  /** Events dropped because the queue was full, since construction. */
  get dropped(): number {
    return this.#dropped;
  }

  async #drain(): Promise<void> {
    for (let event = this.#queue.shift(); event !== undefined; event = this.#queue.shift()) {
      try {
        await this.#cluster.createEvent({
          involvedObject: referenceTo(event.object),
          type: event.type,
          reason: event.reason,
          message: event.message,
          source: { component: this.#component },
        });
      } catch (err) {
        this.#logger.debug({ err, reason: event.reason }, 'could not publish event');
      }
    }
  }
}

/** An EventRecorder that keeps events in memory; for tests. */
export class RecordingEventRecorder implements EventRecorder {
  readonly events: PublishedEvent[] = [];

  async publish(event: PublishedEvent): Promise<void> {
    this.events.push(event);
  }

  /** Events with this reason. */
  withReason(reason: string): PublishedEvent[] {
    return this.events.filter((e) => e.reason === reason);
  }
}
