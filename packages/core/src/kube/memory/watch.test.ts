import { describe, expect, it } from 'vitest';
import { isBadRequest, isGone } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { ResourceType } from '../resource-type.js';
import { Pods as TypedPods } from '../resource-types.js';
import type { WatchEvent } from '../watch.js';
import { newCluster, podObject, type Widget, Widgets, widget } from './test-fixtures.js';

// The port's contract is kind-agnostic: these tests write objects with only the fields at stake.
const Pods: ResourceType = TypedPods;

type Seen = { type: string; name?: string; rv?: string; size?: number };

function recorder() {
  const seen: Seen[] = [];
  const handler = (event: WatchEvent<Widget>) => {
    if (event.type === 'ERROR') seen.push({ type: 'ERROR', name: event.error.reason });
    else {
      seen.push({
        type: event.type,
        name: event.object.metadata.name as string,
        rv: event.object.metadata.resourceVersion as string,
        ...(event.object.spec?.size === undefined ? {} : { size: event.object.spec.size }),
      });
    }
  };
  return { seen, handler };
}

describe('watch', () => {
  it('delivers current objects as ADDED, then syncs, then changes in order', async () => {
    const { cluster } = newCluster();
    await cluster.create(Widgets, widget('a', { size: 1 }));
    await cluster.create(Widgets, widget('b', { size: 1 }));
    const { seen, handler } = recorder();
    const w = cluster.watch(Widgets, handler);
    expect(w.hasSynced()).toBe(false);
    await w.synced;
    expect(w.hasSynced()).toBe(true);
    expect(seen.map((s) => `${s.type} ${s.name}`)).toEqual(['ADDED a', 'ADDED b']);
    await cluster.patch(Widgets, { name: 'a' }, { spec: { size: 2 } });
    await cluster.create(Widgets, widget('c'));
    await cluster.delete(Widgets, { name: 'b' });
    await cluster.settled();
    expect(seen.slice(2).map((s) => `${s.type} ${s.name}`)).toEqual(['MODIFIED a', 'ADDED c', 'DELETED b']);
    const rvs = seen.slice(2).map((s) => Number(s.rv));
    expect([...rvs].sort((x, y) => x - y)).toEqual(rvs);
    expect(w.resourceVersion()).toBe(cluster.resourceVersion);
    w.stop();
  });

  it('delivers asynchronously, never inside the write that caused the event', async () => {
    const { cluster } = newCluster();
    const order: string[] = [];
    const w = cluster.watch(Widgets, (e) => {
      if (e.type !== 'ERROR') order.push(`event ${e.type}`);
    });
    await w.synced;
    const write = cluster.create(Widgets, widget('a'));
    order.push('write returned');
    await write;
    await cluster.settled();
    expect(order).toEqual(['write returned', 'event ADDED']);
  });

  it('awaits each handler before delivering the next event, even when handlers write', async () => {
    const { cluster } = newCluster();
    const log: string[] = [];
    const w = cluster.watch(Widgets, async (e) => {
      if (e.type === 'ERROR') return;
      const name = e.object.metadata.name as string;
      log.push(`start ${e.type} ${name}`);
      if (e.type === 'ADDED' && name === 'a')
        await cluster.patch(Widgets, { name: 'a' }, { spec: { size: 9 } });
      await Promise.resolve();
      log.push(`end ${e.type} ${name}`);
    });
    // Both writes commit before any delivery; the handler's own write queues behind them.
    await Promise.all([cluster.create(Widgets, widget('a')), cluster.create(Widgets, widget('b'))]);
    await cluster.settled();
    expect(log).toEqual([
      'start ADDED a',
      'end ADDED a',
      'start ADDED b',
      'end ADDED b',
      'start MODIFIED a',
      'end MODIFIED a',
    ]);
    w.stop();
  });

  it('resumes from a resourceVersion with exactly the later changes', async () => {
    const { cluster } = newCluster();
    const first = recorder();
    const w1 = cluster.watch(Widgets, first.handler);
    await cluster.create(Widgets, widget('a', { size: 1 }));
    await cluster.settled();
    const resumeAt = w1.resourceVersion();
    w1.stop();
    await cluster.patch(Widgets, { name: 'a' }, { spec: { size: 2 } });
    await cluster.create(Widgets, widget('b'));
    const second = recorder();
    const w2 = cluster.watch(Widgets, second.handler, { resourceVersion: resumeAt });
    await w2.synced;
    expect(second.seen.map((s) => `${s.type} ${s.name} ${s.size ?? ''}`)).toEqual([
      'MODIFIED a 2',
      'ADDED b ',
    ]);
    await cluster.delete(Widgets, { name: 'a' });
    await cluster.settled();
    expect(second.seen.at(-1)?.type).toBe('DELETED');
    w2.stop();
  });

  it('ends with a 410 when resuming from history that was compacted', async () => {
    const { cluster } = newCluster({ watchHistory: 3 });
    const start = cluster.resourceVersion;
    for (let i = 0; i < 5; i++) await cluster.create(Widgets, widget(`w${i}`));
    const { seen, handler } = recorder();
    const w = cluster.watch(Widgets, handler, { resourceVersion: start });
    await expect(w.synced).rejects.toSatisfy(isGone);
    await cluster.settled();
    expect(seen).toEqual([{ type: 'ERROR', name: 'Expired' }]);
  });

  it('sees ADDED and DELETED as objects enter and leave its selector', async () => {
    const { cluster } = newCluster();
    const seen: string[] = [];
    const w = cluster.watch(
      Pods,
      (e: WatchEvent<KubeObject>) => {
        if (e.type !== 'ERROR')
          seen.push(`${e.type} ${e.object.metadata.name} ${e.object.metadata.labels?.app ?? '-'}`);
      },
      { labelSelector: 'app=web', fieldSelector: 'metadata.namespace=default' },
    );
    await cluster.create(Pods, podObject('p', { labels: { app: 'batch' } }));
    await cluster.patch(Pods, { name: 'p', namespace: 'default' }, { metadata: { labels: { app: 'web' } } });
    await cluster.patch(Pods, { name: 'p', namespace: 'default' }, { metadata: { labels: { extra: '1' } } });
    await cluster.patch(
      Pods,
      { name: 'p', namespace: 'default' },
      { metadata: { labels: { app: 'batch' } } },
    );
    await cluster.settled();
    // Leaving the selector shows the last matching state, with the new resourceVersion.
    expect(seen).toEqual(['ADDED p web', 'MODIFIED p web', 'DELETED p web']);
    w.stop();
  });

  it('shares one frozen object between watches: a handler cannot change what another sees', async () => {
    const { cluster } = newCluster();
    const got: Widget[] = [];
    const failures: unknown[] = [];
    const w1 = cluster.watch(Widgets, (e) => {
      if (e.type === 'ADDED') {
        try {
          (e.object.spec as { size: number }).size = 100;
        } catch (err) {
          failures.push(err);
        }
        got.push(e.object);
      }
    });
    const w2 = cluster.watch(Widgets, (e) => {
      if (e.type === 'ADDED') got.push(e.object);
    });
    await cluster.create(Widgets, widget('a', { size: 1 }));
    await cluster.settled();
    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(TypeError);
    expect(got.map((o) => o.spec?.size)).toEqual([1, 1]);
    expect(got[0]).toBe(got[1]);
    expect((await cluster.get(Widgets, { name: 'a' })).spec?.size).toBe(1);
    w1.stop();
    w2.stop();
  });

  it('delivers objects without managedFields to a watch that asks, for existing objects and changes', async () => {
    const { cluster } = newCluster();
    await cluster.create(Widgets, widget('a', { size: 1 }));
    const stripped: Widget[] = [];
    const full: Widget[] = [];
    const w1 = cluster.watch(
      Widgets,
      (e) => {
        if (e.type !== 'ERROR') stripped.push(e.object);
      },
      { withoutManagedFields: true },
    );
    const w2 = cluster.watch(Widgets, (e) => {
      if (e.type !== 'ERROR') full.push(e.object);
    });
    await cluster.patch(Widgets, { name: 'a' }, { spec: { size: 2 } });
    await cluster.settled();
    expect(stripped.map((o) => [o.metadata.name, o.spec?.size, o.metadata.managedFields])).toEqual([
      ['a', 1, undefined],
      ['a', 2, undefined],
    ]);
    expect(full.map((o) => o.metadata.managedFields?.length)).toEqual([1, 1]);
    expect((await cluster.get(Widgets, { name: 'a' })).metadata.managedFields).toHaveLength(1);
    w1.stop();
    w2.stop();
  });

  it('makes one frozen view without managedFields per version, for every watch that asks', async () => {
    const { cluster } = newCluster();
    await cluster.create(Widgets, widget('a', { size: 1 }));
    const seen: Widget[][] = [[], []];
    const watches = seen.map((into) =>
      cluster.watch(
        Widgets,
        (e) => {
          if (e.type !== 'ERROR') into.push(e.object);
        },
        { withoutManagedFields: true },
      ),
    );
    await cluster.patch(Widgets, { name: 'a' }, { spec: { size: 2 } });
    await cluster.settled();
    expect(seen[0]).toHaveLength(2);
    seen[0]?.forEach((object, i) => {
      expect(object).toBe(seen[1]?.[i]);
      expect(object.metadata.managedFields).toBeUndefined();
      expect(Object.isFrozen(object.metadata)).toBe(true);
    });
    for (const w of watches) w.stop();
  });

  it('stops delivering after stop()', async () => {
    const { cluster } = newCluster();
    const { seen, handler } = recorder();
    const w = cluster.watch(Widgets, handler);
    await w.synced;
    w.stop();
    await cluster.create(Widgets, widget('a'));
    await cluster.settled();
    expect(seen).toEqual([]);
  });

  it('reports a bad selector as an ERROR event', async () => {
    const { cluster } = newCluster();
    const { seen, handler } = recorder();
    const w = cluster.watch(Widgets, handler, { fieldSelector: 'spec.size=1' });
    await expect(w.synced).rejects.toSatisfy(isBadRequest);
    expect(seen).toEqual([{ type: 'ERROR', name: 'BadRequest' }]);
  });

  it('surfaces handler errors from settled() without stopping delivery', async () => {
    const { cluster } = newCluster();
    const seen: string[] = [];
    const w = cluster.watch(Widgets, (e) => {
      if (e.type === 'ERROR') return;
      seen.push(e.object.metadata.name as string);
      if (e.object.metadata.name === 'bad') throw new Error('handler broke');
    });
    await cluster.create(Widgets, widget('bad'));
    await cluster.create(Widgets, widget('good'));
    await expect(cluster.settled()).rejects.toThrow('handler broke');
    expect(seen).toEqual(['bad', 'good']);
    await expect(cluster.settled()).resolves.toBeUndefined();
    w.stop();
  });
});
