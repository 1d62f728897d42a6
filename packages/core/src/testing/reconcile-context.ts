import type { Logger } from 'pino';
import type { ObjectKey } from '../kube/object.js';
import type { CacheSync } from '../operator/runtime/cache-sync.js';
import type { ReconcileContext } from '../operator/runtime/controller.js';
import { type ControllerCache, StoreCache } from '../operator/runtime/controller-cache.js';
import { createLogger } from '../operator/runtime/logger.js';

/** What a test may set on the context it hands a controller's `reconcile` directly. */
export interface ReconcileContextOptions {
  /** Default: a silent logger. */
  readonly logger?: Logger;
  /** Default: a signal that never aborts. Also the context's `managerSignal`. */
  readonly signal?: AbortSignal;
  /**
   * Default: a cache that watches no kind, so a controller that reads the cache instead of
   * the cluster fails loudly rather than seeing an empty world.
   */
  readonly cache?: ControllerCache;
  /** Default: synced, as a manager's caches are once their first lists are delivered. */
  readonly cacheSync?: CacheSync;
  /** Default: drops the key (no manager runs here to reconcile it). */
  readonly enqueue?: (key: ObjectKey) => void;
}

/**
 * A complete ReconcileContext for tests that call one controller's `reconcile` without a
 * Manager. Built here, typed, so a field added to the context is added once for every test.
 */
export function reconcileContext(options: ReconcileContextOptions = {}): ReconcileContext {
  const sync = options.cacheSync ?? { synced: true, listing: [] };
  const signal = options.signal ?? new AbortController().signal;
  return {
    logger: options.logger ?? createLogger({ level: 'silent' }),
    signal,
    managerSignal: signal,
    cache: options.cache ?? new StoreCache(new Map()),
    cacheSync: () => sync,
    enqueue: options.enqueue ?? (() => {}),
  };
}
