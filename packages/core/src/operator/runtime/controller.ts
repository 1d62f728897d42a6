import type { Logger } from 'pino';
import type { BackoffPolicy } from '../../clock/backoff.js';
import type { KubeObject, ObjectKey } from '../../kube/object.js';
import type { ResourceType } from '../../kube/resource-type.js';
import type { CacheSync } from './cache-sync.js';
import type { ControllerCache } from './controller-cache.js';
import type { InformerEvent } from './informer.js';
import { objectKey } from './keys.js';

/** What a reconcile asks of the queue when it returns normally. */
export interface ReconcileResult {
  /** Run this key again after this long (the latest reconcile's answer replaces earlier ones). */
  readonly requeueAfterMs?: number;
  /** Run this key again soon, with the per-key backoff, without counting an error. */
  readonly requeue?: boolean;
}

/** What a reconcile gets besides its key. */
export interface ReconcileContext {
  /** The objects of every watched kind, as last delivered; see ControllerCache for consistency. */
  readonly cache: ControllerCache;
  /**
   * Aborted when the manager stops or the reconcile passes its deadline (the reason is then a
   * ReconcileDeadlineExceeded); long operations should give up.
   */
  readonly signal: AbortSignal;
  /**
   * Aborted when the manager stops, and never at a reconcile's deadline: the signal for
   * background work a reconcile starts that outlives it (a long poll), so that work ends with
   * the manager rather than with the reconcile that started it.
   */
  readonly managerSignal: AbortSignal;
  /** The controller's logger (`controller` bound), for structured logs. */
  readonly logger: Logger;
  /**
   * Whether every informer cache holds the API server's current list now. Controllers that
   * decide from the whole cluster (provisioning, disruption, garbage collection) act only while
   * it is synced; see `unsyncedReason`.
   */
  readonly cacheSync: () => CacheSync;
  /**
   * Queues one of this controller's keys to reconcile soon (deduplicated, as a watch event
   * would), from outside a reconcile: for work a reconcile started in the background (a
   * long-polling receive) that wakes the controller when it delivers, instead of a polling
   * requeue. Does nothing once the manager stops.
   */
  readonly enqueue: (key: ObjectKey) => void;
}

/** Maps a change of a watched object to the keys of the controller that must reconcile. */
export type EventMapper = (event: InformerEvent, cache: ControllerCache) => Iterable<ObjectKey>;

/** One kind a controller watches, and which of its keys a change of such an object concerns. */
export interface WatchSource {
  readonly type: ResourceType;
  readonly map: EventMapper;
}

/**
 * A level-triggered controller: `reconcile(key)` makes the world match the object named by
 * `key`, whatever happened before, and must be idempotent — it may run again for any reason
 * (a restart, a relist, a retry after an error). The queue never runs one key twice at once.
 *
 * Errors are retried with a per-key exponential backoff. A result's `requeueAfterMs` schedules
 * the next run; an event for the key runs it sooner and that run's result decides again, so a
 * reconcile that must wake up at some time returns that delay on every run.
 *
 * A reconcile must not wait on timers (no `sleep`): the manager's `settled()` waits for running
 * reconciles, and ManualTimers only advance between settlements. Return `requeueAfterMs`
 * instead.
 */
export interface Controller {
  /** `<resource>.<concern>`, e.g. `nodeclaim.lifecycle`; used in logs and metrics. */
  readonly name: string;
  /** Kinds to watch and how their changes map to keys (see `watchSelf`, `watchMapped`). */
  readonly watches: readonly WatchSource[];
  /** Keys to reconcile once at start regardless of watches (singleton or polling controllers). */
  readonly initialKeys?: readonly ObjectKey[];
  /** How many different keys may reconcile at once; default 1. */
  readonly maxConcurrentReconciles?: number;
  /** Retry backoff after errors; default ControllerBackoff (5 ms .. 1000 s). */
  readonly backoff?: BackoffPolicy;
  /**
   * How long one reconcile may run; default the manager's (DefaultReconcileDeadlineMs). Past it
   * the reconcile's signal is aborted, its worker freed, whatever it returns later ignored, and
   * the key retried with backoff, counted as an error.
   */
  readonly reconcileDeadlineMs?: number;
  reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined>;
}

/** Watch a kind and reconcile each changed object's own key (controller-runtime's `For`). */
export function watchSelf<T extends KubeObject>(
  type: ResourceType<T>,
  filter?: (event: InformerEvent & { readonly object: T }) => boolean,
): WatchSource {
  return {
    type,
    map: (event) => {
      if (filter !== undefined && !filter(event as InformerEvent & { readonly object: T })) return [];
      const key = objectKey(event.object);
      return key === undefined ? [] : [key];
    },
  };
}

/** Watch a related kind, mapping each changed object to the keys it affects (`Watches` + handler). */
export function watchMapped<T extends KubeObject>(
  type: ResourceType<T>,
  map: (object: T, cache: ControllerCache, event: InformerEvent) => Iterable<ObjectKey>,
): WatchSource {
  return { type, map: (event, cache) => map(event.object as T, cache, event) };
}
