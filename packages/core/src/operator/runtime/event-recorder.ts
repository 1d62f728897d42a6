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
}

/** Publishes core/v1 Events; failures are logged, never thrown (events are best effort). */
export interface EventRecorder {
  publish(event: PublishedEvent): Promise<void>;
}

/**
 * An EventRecorder over the cluster port. Identical events are aggregated by the port (count
 * grows), so republishing the same blocked-drain event every retry is cheap.
 */
export class ClusterEventRecorder implements EventRecorder {
  readonly #cluster: ClusterPort;
  readonly #logger: Logger;
  readonly #component: string;

  /** `component` is the events' `source.component`; default `karpenter`, which tooling filters on. */
  constructor(cluster: ClusterPort, logger: Logger, component = 'karpenter') {
    this.#cluster = cluster;
    this.#logger = logger;
    this.#component = component;
  }

  async publish(event: PublishedEvent): Promise<void> {
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
