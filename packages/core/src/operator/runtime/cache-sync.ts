import { Gauge, type Registry } from 'prom-client';
import type { ReconcileContext, ReconcileResult } from './controller.js';

/**
 * Whether the informer caches hold what the API server lists now. A cache is unsynced from the
 * start of its first list until that list is delivered, and again from the start of a relist
 * (after its watch expired) until the relist is delivered and the vanished objects dropped:
 * meanwhile it may lack objects or hold deleted ones, so a decision read from it could launch
 * capacity that exists or disrupt nodes whose pods it does not see.
 */
export interface CacheSync {
  readonly synced: boolean;
  /** REST resource names (`pods`, `nodeclaims`) whose list is in progress, sorted. */
  readonly listing: readonly string[];
  /** Since when (ms since the epoch) some cache has been unsynced; undefined while synced. */
  readonly unsyncedSinceMs?: number;
}

/** The reason a pass that needs synced caches is skipped, or undefined when it may run. */
export function unsyncedReason(sync: CacheSync): string | undefined {
  if (sync.synced) return undefined;
  return `cluster state not synced: ${sync.listing.map((kind) => `${kind} informer listing`).join(', ')}`;
}

/** One informer's part: when its current list started, if it has not been delivered yet. */
export interface ListingState {
  readonly plural: string;
  readonly listingSinceMs: number | undefined;
}

/** Joins the informers' states: synced only when none is listing; unsynced since the oldest listing. */
export function cacheSyncOf(informers: Iterable<ListingState>): CacheSync {
  const listing: string[] = [];
  let since: number | undefined;
  for (const i of informers) {
    if (i.listingSinceMs === undefined) continue;
    listing.push(i.plural);
    since = since === undefined ? i.listingSinceMs : Math.min(since, i.listingSinceMs);
  }
  if (since === undefined) return { synced: true, listing: [] };
  return { synced: false, listing: listing.sort(), unsyncedSinceMs: since };
}

/** Karpenter's names for the cache-sync gauges. */
export const CacheSyncMetricNames = {
  Synced: 'karpenter_cluster_state_synced',
  UnsyncedTime: 'karpenter_cluster_state_unsynced_time_seconds',
} as const;

/**
 * Registers `karpenter_cluster_state_synced` (1 when every cache is synced, else 0) and
 * `karpenter_cluster_state_unsynced_time_seconds` (how long the caches have been unsynced, 0 while
 * synced), both read at scrape time from `read`. Gauges already in the registry (a manager restarted on
 * it) are replaced, so the live manager answers.
 */
export function registerCacheSyncMetrics(registry: Registry, read: () => CacheSync, now: () => number): void {
  for (const name of Object.values(CacheSyncMetricNames)) registry.removeSingleMetric(name);
  new Gauge({
    name: CacheSyncMetricNames.Synced,
    help: 'Returns 1 if cluster state is synced and 0 otherwise. Synced checks that nodeclaims and nodes that are stored in the APIServer have the same representation as Karpenter',
    registers: [registry],
    collect() {
      this.set(read().synced ? 1 : 0);
    },
  });
  new Gauge({
    name: CacheSyncMetricNames.UnsyncedTime,
    help: 'The time for which cluster state is not synced',
    registers: [registry],
    collect() {
      const since = read().unsyncedSinceMs;
      this.set(since === undefined ? 0 : Math.max(0, now() - since) / 1000);
    },
  });
}

/** How soon a pass skipped for unsynced caches looks again. */
export const UnsyncedRetryMs = 1_000;

/**
 * For a reconcile that decides from the whole cluster: undefined when the caches are synced (go
 * on), else a requeue after `retryMs`, having logged why the pass is skipped.
 */
export function skipWhileUnsynced(
  context: Pick<ReconcileContext, 'cacheSync' | 'logger'>,
  retryMs: number,
): ReconcileResult | undefined {
  const sync = context.cacheSync();
  const reason = unsyncedReason(sync);
  if (reason === undefined) return undefined;
  context.logger.info({ reason, listing: sync.listing }, `pass skipped: ${reason}`);
  return { requeueAfterMs: retryMs };
}
