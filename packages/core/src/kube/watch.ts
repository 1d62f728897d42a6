import type { KubeError } from './errors.js';
import type { KubeObject } from './object.js';
import type { SelectorOptions } from './port.js';

/**
 * One change seen by a watch. `ADDED` also carries the initial objects; `DELETED` carries the
 * object's last state, with the resourceVersion of the deletion (or, when the object merely
 * stopped matching the watch's selectors, its previous state). `ERROR` ends the watch.
 */
export type WatchEvent<T extends KubeObject = KubeObject> =
  | { readonly type: 'ADDED' | 'MODIFIED' | 'DELETED'; readonly object: T }
  | { readonly type: 'ERROR'; readonly error: KubeError };

/**
 * Receives a watch's events one at a time, in order: the next event is not delivered until
 * the promise a handler returns settles. A handler must not wait for its own watch to make
 * progress (e.g. `await cluster.settled()` inside it) or the watch stalls.
 */
export type WatchHandler<T extends KubeObject = KubeObject> = (event: WatchEvent<T>) => void | Promise<void>;

/** Where a watch starts and what it sees. */
export interface WatchOptions extends SelectorOptions {
  /**
   * Resume point. Unset or `"0"`: deliver every current object as ADDED, then changes
   * (list+watch, as an informer does). Otherwise: only changes after this version; if the
   * server no longer holds that history the watch ends with an ERROR event carrying a 410
   * (`isGone`), and the caller must restart without a resourceVersion.
   */
  readonly resourceVersion?: string;
  /**
   * Deliver objects without `metadata.managedFields` (see `withoutManagedFields`), and keep
   * none in the watch's own bookkeeping either: for caches, which never read them.
   */
  readonly withoutManagedFields?: boolean;
}

/** A running watch. */
export interface Watch {
  /**
   * Resolves once the initial objects (or, when resuming, the backlog up to the version current
   * at subscription) have been handed to the handler; rejects if the watch failed first.
   */
  readonly synced: Promise<void>;
  hasSynced(): boolean;
  /** resourceVersion of the last event delivered; resume from it after `stop()`. */
  resourceVersion(): string;
  /** Unsubscribes; queued events are dropped and the handler is not called again. */
  stop(): void;
}
