import { DEFAULT_NAMESPACE, type KubeObject, type ObjectKey, type ObjectReference } from './object.js';
import { TimeFormatter } from './time-formatter.js';

/** What a controller says about an object: the input to `ClusterPort.createEvent`. */
export interface EventInput {
  readonly involvedObject: ObjectReference;
  /** UpperCamelCase, machine-readable (`DisruptionBlocked`). */
  readonly reason: string;
  readonly message: string;
  readonly type: 'Normal' | 'Warning';
  /** Who reports it; `component` is the controller name (`karpenter` style). */
  readonly source?: { readonly component?: string; readonly host?: string };
  readonly action?: string;
}

/** A core/v1 Event as stored. */
export interface CoreEvent extends KubeObject {
  involvedObject: ObjectReference;
  reason: string;
  message: string;
  type: 'Normal' | 'Warning';
  source: { component?: string; host?: string };
  count: number;
  firstTimestamp: string;
  lastTimestamp: string;
  reportingComponent: string;
  reportingInstance: string;
  action?: string;
}

/** What to do for one observed event. */
export type EventDecision =
  | { readonly kind: 'create'; readonly event: CoreEvent }
  | {
      readonly kind: 'bump';
      readonly key: ObjectKey;
      readonly count: number;
      readonly lastTimestamp: string;
    };

/**
 * Client-side aggregation of identical events, as client-go's event correlator does: an
 * event equal to an earlier one (same involved object, type, reason, message and source)
 * bumps the earlier event's `count` and `lastTimestamp` instead of creating a new object.
 * Keeps the most recent `capacity` distinct events. Simplified: no similar-event combining
 * (different messages are always distinct events) and no spam rate limit.
 */
export class EventAggregator {
  readonly #capacity: number;
  readonly #seen = new Map<string, { key: ObjectKey; count: number }>();
  #lastMs = Number.NEGATIVE_INFINITY;
  #seq = 0;
  readonly #time = new TimeFormatter();

  constructor(capacity = 4096) {
    this.#capacity = capacity;
  }

  /** Decides create vs bump for an event observed at `now` (ms). */
  observe(input: EventInput, now: number): EventDecision {
    const id = identity(input);
    const seen = this.#seen.get(id);
    const stamp = this.#time.format(now);
    if (seen !== undefined) {
      seen.count++;
      this.#seen.delete(id);
      this.#seen.set(id, seen);
      return { kind: 'bump', key: seen.key, count: seen.count, lastTimestamp: stamp };
    }
    const namespace = input.involvedObject.namespace || DEFAULT_NAMESPACE;
    const name = `${input.involvedObject.name ?? 'unknown'}.${this.#suffix(now)}`;
    const source: { component?: string; host?: string } = {};
    if (input.source?.component !== undefined) source.component = input.source.component;
    if (input.source?.host !== undefined) source.host = input.source.host;
    const event: CoreEvent = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: { ...input.involvedObject },
      reason: input.reason,
      message: input.message,
      type: input.type,
      source,
      count: 1,
      firstTimestamp: stamp,
      lastTimestamp: stamp,
      reportingComponent: input.source?.component ?? '',
      reportingInstance: input.source?.host ?? '',
      ...(input.action === undefined ? {} : { action: input.action }),
    };
    this.#remember(id, { key: { name, namespace }, count: 1 });
    return { kind: 'create', event };
  }

  /** Drops what is known about an event, e.g. after it was deleted on the server. */
  forget(input: EventInput): void {
    this.#seen.delete(identity(input));
  }

  #remember(id: string, entry: { key: ObjectKey; count: number }): void {
    this.#seen.set(id, entry);
    while (this.#seen.size > this.#capacity) {
      const oldest = this.#seen.keys().next().value as string;
      this.#seen.delete(oldest);
    }
  }

  /** Nanosecond-timestamp suffix in hex, as client-go names events, unique per aggregator. */
  #suffix(now: number): string {
    this.#seq = now === this.#lastMs ? this.#seq + 1 : 0;
    this.#lastMs = now;
    return (BigInt(Math.floor(now)) * 1_000_000n + BigInt(this.#seq)).toString(16);
  }
}

function identity(input: EventInput): string {
  const o = input.involvedObject;
  return JSON.stringify([
    o.apiVersion ?? '',
    o.kind ?? '',
    o.namespace ?? '',
    o.name ?? '',
    o.uid ?? '',
    o.fieldPath ?? '',
    input.type,
    input.reason,
    input.message,
    input.source?.component ?? '',
    input.source?.host ?? '',
    input.action ?? '',
  ]);
}
