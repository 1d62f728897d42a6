import type { Logger } from 'pino';
import { ItemBackoff } from '../../clock/backoff.js';
import type { Cancel, Timers } from '../../clock/timers.js';
import { isGone, type KubeError } from '../../kube/errors.js';
import type { KubeObject } from '../../kube/object.js';
import type { ClusterPort } from '../../kube/port.js';
import { type ResourceType, typeKey } from '../../kube/resource-type.js';
import type { Watch, WatchEvent } from '../../kube/watch.js';
import type { ListingState } from './cache-sync.js';
import type { TypeStore } from './controller-cache.js';
import { keyString, objectKey } from './keys.js';

/** A change an informer saw, after updating its store. */
export interface InformerEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** The new state; for DELETED the last known state. */
  readonly object: KubeObject;
  /** The state before, for MODIFIED (and DELETED) when the store had one. */
  readonly previous?: KubeObject;
}

export type InformerHandler = (event: InformerEvent) => void;

/** Bounds of the delay before a failed watch is restarted. */
const RESTART_BACKOFF = { baseMs: 1_000, maxMs: 30_000 };

/**
 * list+watch of one kind into a TypeStore, fanning changes out to handlers, as a client-go
 * shared informer does. When the watch ends with an error it restarts after a backoff on the
 * injected Timers: resuming from the last resourceVersion, or re-listing when that is Gone
 * (410) — in which case objects that vanished meanwhile are reported DELETED, so no handler
 * misses a deletion.
 */
export class Informer {
  readonly type: ResourceType;
  readonly #port: ClusterPort;
  readonly #store: TypeStore;
  readonly #timers: Timers;
  readonly #logger: Logger;
  readonly #handlers: InformerHandler[] = [];
  readonly #backoff = new ItemBackoff(RESTART_BACKOFF);
  readonly synced: Promise<void>;
  #resolveSynced!: () => void;
  #hasSynced = false;
  /** When the list now in progress (or awaited after a failed watch) began; undefined when delivered. */
  #listingSince: number | undefined;
  #watch: Watch | undefined;
  #restart: Cancel | undefined;
  #resourceVersion: string | undefined;
  #stopped = false;
  /** Generation of the current watch, so events of a replaced watch are ignored. */
  #generation = 0;

  readonly #now: () => number;

  constructor(
    port: ClusterPort,
    type: ResourceType,
    store: TypeStore,
    timers: Timers,
    logger: Logger,
    now: () => number,
  ) {
    this.#port = port;
    this.#now = now;
    this.type = type;
    this.#store = store;
    this.#timers = timers;
    this.#logger = logger;
    this.synced = new Promise((resolve) => {
      this.#resolveSynced = resolve;
    });
  }

  addHandler(handler: InformerHandler): void {
    this.#handlers.push(handler);
  }

  /** True once the first full list has been delivered to the handlers. */
  hasSynced(): boolean {
    return this.#hasSynced;
  }

  /**
   * This cache's part of CacheSync: listing from `start` until the first list is delivered, and
   * from a watch error that forces a relist until the relist is delivered.
   */
  listingState(): ListingState {
    const since = this.#listingSince ?? (this.#hasSynced ? undefined : this.#now());
    return { plural: this.type.plural, listingSinceMs: since };
  }

  start(): void {
    this.#listingSince = this.#now();
    this.#open(undefined);
  }

  stop(): void {
    this.#stopped = true;
    this.#restart?.();
    this.#watch?.stop();
    this.#watch = undefined;
  }

  #open(resourceVersion: string | undefined): void {
    if (this.#stopped) return;
    const generation = ++this.#generation;
    const relist = resourceVersion === undefined;
    const seen = relist ? new Set<string>() : undefined;
    const watch = this.#port.watch(
      this.type,
      (event) => {
        if (generation === this.#generation) this.#onEvent(event, seen);
      },
      // The cache keeps no managedFields: nothing reads them, and they are ~40 % of a Pod.
      resourceVersion === undefined
        ? { withoutManagedFields: true }
        : { resourceVersion, withoutManagedFields: true },
    );
    this.#watch = watch;
    watch.synced.then(
      () => {
        if (generation !== this.#generation || this.#stopped) return;
        this.#backoff.forget('watch');
        if (seen !== undefined) this.#dropUnseen(seen);
        this.#listingSince = undefined;
        if (!this.#hasSynced) {
          this.#hasSynced = true;
          this.#resolveSynced();
        }
      },
      () => {
        // The ERROR event that ended the watch schedules the restart.
      },
    );
  }

  #onEvent(event: WatchEvent, seen: Set<string> | undefined): void {
    if (event.type === 'ERROR') {
      this.#onError(event.error);
      return;
    }
    const key = objectKey(event.object);
    if (key === undefined) return;
    const k = keyString(key);
    const rv = event.object.metadata.resourceVersion;
    if (rv !== undefined) this.#resourceVersion = rv;
    const previous = this.#store.objects.get(k);
    if (event.type === 'DELETED') {
      this.#store.objects.delete(k);
      this.#emit({ type: 'DELETED', object: event.object, ...(previous ? { previous } : {}) });
      return;
    }
    seen?.add(k);
    this.#store.objects.set(k, event.object);
    if (previous === undefined) this.#emit({ type: 'ADDED', object: event.object });
    else this.#emit({ type: 'MODIFIED', object: event.object, previous });
  }

  #dropUnseen(seen: Set<string>): void {
    for (const [k, object] of [...this.#store.objects]) {
      if (seen.has(k)) continue;
      this.#store.objects.delete(k);
      this.#emit({ type: 'DELETED', object, previous: object });
    }
  }

  #onError(error: KubeError): void {
    this.#watch?.stop();
    this.#watch = undefined;
    if (this.#stopped) return;
    const relist = isGone(error) || this.#resourceVersion === undefined;
    if (relist) this.#listingSince ??= this.#now();
    const delay = this.#backoff.next('watch');
    this.#logger.warn(
      { err: error, kind: typeKey(this.type), relist, retryInMs: delay },
      'watch ended with an error, restarting',
    );
    this.#generation++;
    this.#restart = this.#timers.after(delay, () => {
      this.#restart = undefined;
      this.#open(relist ? undefined : this.#resourceVersion);
    });
  }

  #emit(event: InformerEvent): void {
    for (const handler of this.#handlers) {
      try {
        handler(event);
      } catch (err) {
        this.#logger.error({ err, kind: typeKey(this.type) }, 'informer handler failed');
      }
    }
  }
}
