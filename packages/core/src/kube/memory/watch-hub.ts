import { GoneError, type KubeError } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { Watch, WatchEvent, WatchHandler } from '../watch.js';
import { withResourceVersion } from './frozen.js';
import type { Change } from './object-store.js';
import type { WorkTracker } from './work-tracker.js';

/** Whether an object is visible to a watch (namespace and selectors). */
export type ObjectFilter = (obj: KubeObject) => boolean;

/** How a new watch starts: from a listing of current objects, or after a resourceVersion. */
export type WatchStart =
  | { readonly kind: 'list'; readonly objects: readonly KubeObject[]; readonly revision: number }
  | { readonly kind: 'resume'; readonly after: number; readonly revision: number }
  | { readonly kind: 'fail'; readonly error: KubeError };

type QueueItem =
  | { readonly kind: 'event'; readonly event: WatchEvent; readonly rv: number | undefined }
  | { readonly kind: 'sync'; readonly rv: number };

/**
 * The event stream a watch sees for one change: selector transitions turn updates into
 * ADDED (now matches) or DELETED (no longer matches, carrying the previous state).
 */
export function translate(change: Change, filter: ObjectFilter): WatchEvent | undefined {
  switch (change.op) {
    case 'create':
      return filter(change.object) ? { type: 'ADDED', object: change.object } : undefined;
    case 'delete':
      return filter(change.object) ? { type: 'DELETED', object: change.object } : undefined;
    case 'update': {
      const was = change.previous !== undefined && filter(change.previous);
      const now = filter(change.object);
      if (was && now) return { type: 'MODIFIED', object: change.object };
      if (now) return { type: 'ADDED', object: change.object };
      if (was && change.previous !== undefined) {
        return { type: 'DELETED', object: withResourceVersion(change.previous, String(change.rv)) };
      }
      return undefined;
    }
  }
}

class Subscription implements Watch {
  readonly synced: Promise<void>;
  readonly #hub: WatchHub;
  readonly #tracker: WorkTracker;
  readonly #filter: ObjectFilter;
  readonly #handler: WatchHandler;
  readonly #view: ((object: KubeObject) => KubeObject) | undefined;
  #queue: QueueItem[] = [];
  #draining = false;
  #stopped = false;
  #isSynced = false;
  #lastRv: string;
  #resolve!: () => void;
  #reject!: (err: unknown) => void;

  constructor(
    hub: WatchHub,
    tracker: WorkTracker,
    filter: ObjectFilter,
    handler: WatchHandler,
    startRv: string,
    view: ((object: KubeObject) => KubeObject) | undefined,
  ) {
    this.#view = view;
    this.#hub = hub;
    this.#tracker = tracker;
    this.#filter = filter;
    this.#handler = handler;
    this.#lastRv = startRv;
    this.synced = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // Nobody has to await `synced`; an early stop must not surface as an unhandled rejection.
    this.synced.catch(() => {});
  }

  hasSynced(): boolean {
    return this.#isSynced;
  }

  resourceVersion(): string {
    return this.#lastRv;
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#queue = [];
    this.#hub.unsubscribe(this);
    if (!this.#isSynced) this.#reject(new Error('watch stopped before it synced'));
  }

  /** Queues the initial events and the sync marker. */
  start(items: QueueItem[]): void {
    this.#queue.push(...items);
    this.#kick();
  }

  offer(change: Change): void {
    if (this.#stopped) return;
    const event = translate(change, this.#filter);
    if (event === undefined) return;
    const seen: WatchEvent =
      event.type === 'ERROR' || this.#view === undefined
        ? event
        : { type: event.type, object: this.#view(event.object) };
    this.#queue.push({ kind: 'event', event: seen, rv: change.rv });
    this.#kick();
  }

  #kick(): void {
    if (this.#draining || this.#stopped || this.#queue.length === 0) return;
    this.#draining = true;
    this.#tracker.schedule(() => this.#drain());
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0 && !this.#stopped) {
        const item = this.#queue.shift() as QueueItem;
        if (item.kind === 'sync') {
          this.#lastRv = String(item.rv);
          this.#isSynced = true;
          this.#resolve();
          continue;
        }
        try {
          await this.#handler(item.event);
        } catch (err) {
          this.#tracker.fail(err);
        }
        if (item.rv !== undefined) this.#lastRv = String(item.rv);
        if (item.event.type === 'ERROR') {
          this.#reject(item.event.error);
          this.stop();
        }
      }
    } finally {
      this.#draining = false;
    }
  }
}

/**
 * Fans committed changes out to watches, keeping a bounded history so a watch can resume from
 * a recent resourceVersion (older ones are Gone, as after an etcd compaction). Each watch has
 * its own queue delivered in order on microtasks, so a handler never runs inside a write.
 */
export class WatchHub {
  readonly #tracker: WorkTracker;
  readonly #historyLimit: number;
  readonly #subs = new Map<string, Set<Subscription>>();
  readonly #owner = new Map<Subscription, string>();
  /** Changes kept for resuming: `#history[#first]` onwards (the rest awaits a batched trim). */
  #history: Change[] = [];
  #first = 0;
  #compactedThrough = 0;

  constructor(tracker: WorkTracker, historyLimit: number) {
    this.#tracker = tracker;
    this.#historyLimit = historyLimit;
  }

  publish(change: Change): void {
    this.#history.push(change);
    while (this.#history.length - this.#first > this.#historyLimit) {
      this.#compactedThrough = (this.#history[this.#first] as Change).rv;
      this.#first++;
    }
    // Dropping from the front of the array on every write moved the whole history each time.
    if (this.#first > this.#historyLimit) {
      this.#history = this.#history.slice(this.#first);
      this.#first = 0;
    }
    for (const sub of this.#subs.get(change.typeKey) ?? []) sub.offer(change);
  }

  /**
   * Starts a watch. Its handler gets the stored objects themselves, which are frozen and shared
   * with every other reader, or what `view` makes of them (a watch that drops managedFields gets
   * shared frozen views without them).
   */
  subscribe(
    typeKey: string,
    filter: ObjectFilter,
    handler: WatchHandler,
    start: WatchStart,
    view?: (object: KubeObject) => KubeObject,
  ): Watch {
    const show = view ?? ((object: KubeObject) => object);
    const items: QueueItem[] = [];
    let startRv = '0';
    if (start.kind === 'fail') {
      items.push({ kind: 'event', event: { type: 'ERROR', error: start.error }, rv: undefined });
    } else if (start.kind === 'list') {
      for (const object of start.objects) {
        items.push({
          kind: 'event',
          event: { type: 'ADDED', object: show(object) },
          rv: undefined,
        });
      }
      items.push({ kind: 'sync', rv: start.revision });
    } else if (start.after < this.#compactedThrough) {
      startRv = String(start.after);
      const error = new GoneError(`too old resource version: ${start.after} (${this.#compactedThrough + 1})`);
      items.push({ kind: 'event', event: { type: 'ERROR', error }, rv: undefined });
    } else {
      startRv = String(start.after);
      for (let i = this.#first; i < this.#history.length; i++) {
        const change = this.#history[i] as Change;
        if (change.rv <= start.after || change.typeKey !== typeKey) continue;
        const event = translate(change, filter);
        if (event === undefined) continue;
        const seen: WatchEvent =
          event.type === 'ERROR' ? event : { type: event.type, object: show(event.object) };
        items.push({ kind: 'event', event: seen, rv: change.rv });
      }
      // Caught up: nothing this watch can see changed between the backlog and now.
      items.push({ kind: 'sync', rv: Math.max(start.after, start.revision) });
    }
    const sub = new Subscription(this, this.#tracker, filter, handler, startRv, view);
    if (start.kind !== 'fail') {
      let set = this.#subs.get(typeKey);
      if (set === undefined) {
        set = new Set();
        this.#subs.set(typeKey, set);
      }
      set.add(sub);
      this.#owner.set(sub, typeKey);
    }
    sub.start(items);
    return sub;
  }

  unsubscribe(sub: Subscription): void {
    const typeKey = this.#owner.get(sub);
    if (typeKey === undefined) return;
    this.#owner.delete(sub);
    this.#subs.get(typeKey)?.delete(sub);
  }
}
