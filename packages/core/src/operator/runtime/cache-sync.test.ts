import { pino } from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/clock.js';
import { ManualTimers } from '../../clock/timers.js';
import { MemoryCluster } from '../../kube/memory/memory-cluster.js';
import { Pods } from '../../kube/resource-types.js';
import {
  CacheSyncMetricNames,
  cacheSyncOf,
  registerCacheSyncMetrics,
  skipWhileUnsynced,
  unsyncedReason,
} from './cache-sync.js';
import { watchSelf } from './controller.js';
import { Manager } from './manager.js';

describe('cacheSyncOf', () => {
  it('is synced only when no informer is listing, unsynced since the oldest listing', () => {
    expect(cacheSyncOf([{ plural: 'nodes', listingSinceMs: undefined }])).toEqual({
      synced: true,
      listing: [],
    });
    const sync = cacheSyncOf([
      { plural: 'pods', listingSinceMs: 5_000 },
      { plural: 'nodes', listingSinceMs: undefined },
      { plural: 'nodeclaims', listingSinceMs: 2_000 },
    ]);
    expect(sync).toEqual({ synced: false, listing: ['nodeclaims', 'pods'], unsyncedSinceMs: 2_000 });
    expect(unsyncedReason(sync)).toBe(
      'cluster state not synced: nodeclaims informer listing, pods informer listing',
    );
    expect(unsyncedReason({ synced: true, listing: [] })).toBeUndefined();
  });
});

describe('cache-sync metrics', () => {
  it('read 0 and the unsynced time while listing, 1 and 0 once synced', async () => {
    const registry = new Registry();
    let since: number | undefined = 1_000;
    let now = 4_500;
    registerCacheSyncMetrics(
      registry,
      () => cacheSyncOf([{ plural: 'pods', listingSinceMs: since }]),
      () => now,
    );
    const value = async (name: string) => (await registry.getSingleMetric(name)?.get())?.values[0]?.value;
    expect(await value(CacheSyncMetricNames.Synced)).toBe(0);
    expect(await value(CacheSyncMetricNames.UnsyncedTime)).toBe(3.5);
    since = undefined;
    now = 9_000;
    expect(await value(CacheSyncMetricNames.Synced)).toBe(1);
    expect(await value(CacheSyncMetricNames.UnsyncedTime)).toBe(0);
    // A second registration (a restarted manager) replaces the first instead of throwing.
    registerCacheSyncMetrics(
      registry,
      () => ({ synced: false, listing: ['nodes'], unsyncedSinceMs: 0 }),
      () => 2_000,
    );
    expect(await value(CacheSyncMetricNames.Synced)).toBe(0);
    expect(await value(CacheSyncMetricNames.UnsyncedTime)).toBe(2);
  });
});

describe('skipWhileUnsynced', () => {
  it('logs the reason and requeues while unsynced; lets the pass run once synced', () => {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) });
    const unsynced = { synced: false, listing: ['pods'], unsyncedSinceMs: 0 } as const;
    expect(skipWhileUnsynced({ logger, cacheSync: () => unsynced }, 1_000)).toEqual({
      requeueAfterMs: 1_000,
    });
    expect(lines[0]?.reason).toBe('cluster state not synced: pods informer listing');
    expect(
      skipWhileUnsynced({ logger, cacheSync: () => ({ synced: true, listing: [] }) }, 1_000),
    ).toBeUndefined();
  });
});

describe('Manager.cacheSync', () => {
  it('is unsynced before the informers list and synced once they delivered', async () => {
    const clock = new FakeClock(10_000);
    const cluster = new MemoryCluster({ clock });
    const manager = new Manager({
      cluster,
      clock,
      timers: new ManualTimers(clock),
      registry: new Registry(),
      logger: pino({ level: 'silent' }),
      settleCluster: () => cluster.settled(),
    });
    manager.register({ name: 'probe', watches: [watchSelf(Pods)], reconcile: async () => undefined });
    expect(manager.cacheSync()).toEqual({ synced: false, listing: ['pods'], unsyncedSinceMs: 10_000 });
    manager.start();
    await manager.synced();
    expect(manager.cacheSync()).toEqual({ synced: true, listing: [] });
    await manager.stop();
  });
});
