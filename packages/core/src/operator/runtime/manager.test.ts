import { pino } from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/clock.js';
import { ManualTimers } from '../../clock/timers.js';
import { GoneError, type NotFoundError } from '../../kube/errors.js';
import { MemoryCluster } from '../../kube/memory/memory-cluster.js';
import type { KubeObject, ObjectKey } from '../../kube/object.js';
import type { ClusterPort } from '../../kube/port.js';
import { resourceType } from '../../kube/resource-type.js';
import type { WatchHandler } from '../../kube/watch.js';
import { type Controller, type ReconcileResult, watchMapped, watchSelf } from './controller.js';
import { keyString } from './keys.js';
import { Manager } from './manager.js';
import { TerminalReconcileError } from './terminal-error.js';

interface Widget extends KubeObject {
  spec?: { size?: number };
  status?: { observed?: number };
}
const Widgets = resourceType<Widget>({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  namespaced: false,
  statusSubresource: true,
});
const Gadgets = resourceType({ apiVersion: 'example.com/v1', kind: 'Gadget', namespaced: true });

const START = Date.parse('2026-03-01T12:00:00Z');

function setup(port?: (cluster: MemoryCluster) => ClusterPort) {
  const clock = new FakeClock(START);
  const timers = new ManualTimers(clock);
  const cluster = new MemoryCluster({ clock, kinds: [Widgets, Gadgets] });
  const registry = new Registry();
  const manager = new Manager({
    cluster: port === undefined ? cluster : port(cluster),
    clock,
    timers,
    registry,
    logger: pino({ level: 'silent' }),
    settleCluster: () => cluster.settled(),
    elapsed: () => clock.now() / 1000,
  });
  const settle = () => manager.settled();
  return { clock, timers, cluster, registry, manager, settle };
}

const widget = (name: string, size = 1): Widget => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec: { size },
});

/** A controller that records its calls and delegates to `body`. */
function recording(
  name: string,
  body: (key: ObjectKey, call: number) => Promise<ReconcileResult | undefined> = async () => undefined,
  extra: Partial<Controller> = {},
) {
  const calls: { key: string; at: number }[] = [];
  let clock: FakeClock | undefined;
  const controller: Controller = {
    name,
    watches: [watchSelf(Widgets)],
    async reconcile(key) {
      calls.push({ key: keyString(key), at: clock?.now() ?? 0 });
      return body(key, calls.length);
    },
    ...extra,
  };
  return { controller, calls, bind: (c: FakeClock) => (clock = c) };
}

describe('Manager', () => {
  it('reconciles every existing object after the initial list and reports readiness', async () => {
    const { cluster, manager, settle } = setup();
    await cluster.create(Widgets, widget('a'));
    await cluster.create(Widgets, widget('b'));
    const r = recording('widget.test');
    manager.register(r.controller);
    expect(manager.hasSynced()).toBe(false);
    manager.start();
    await manager.synced();
    await settle();
    expect(manager.hasSynced()).toBe(true);
    expect(r.calls.map((c) => c.key).sort()).toEqual(['a', 'b']);
  });

  it('a reconcile that writes sees its own change once and then settles (idempotence)', async () => {
    const { cluster, manager, settle } = setup();
    let writes = 0;
    const r = recording('widget.status', async (key) => {
      const w = await cluster.get(Widgets, key);
      if (w.status?.observed === w.spec?.size) return undefined;
      writes++;
      await cluster.patchStatus(Widgets, key, { status: { observed: w.spec?.size ?? 0 } });
      return undefined;
    });
    manager.register(r.controller).start();
    await cluster.create(Widgets, widget('a', 3));
    await settle();
    expect((await cluster.get(Widgets, { name: 'a' })).status?.observed).toBe(3);
    expect(writes).toBe(1);
    expect(r.calls).toHaveLength(2);
    await cluster.patch(Widgets, { name: 'a' }, { spec: { size: 4 } });
    await settle();
    expect((await cluster.get(Widgets, { name: 'a' })).status?.observed).toBe(4);
    expect(writes).toBe(2);
  });

  it('retries errors with per-key exponential backoff on the timers and counts them', async () => {
    const { cluster, manager, settle, timers, clock, registry } = setup();
    const r = recording('widget.flaky', async (_key, call) => {
      if (call <= 3) throw new Error(`boom ${call}`);
      return undefined;
    });
    r.bind(clock);
    manager.register(r.controller).start();
    await cluster.create(Widgets, widget('a'));
    await settle();
    expect(r.calls).toHaveLength(1);
    await timers.advance(1_000, settle);
    expect(r.calls.map((c) => c.at - START)).toEqual([0, 5, 15, 35]);
    const errors = await registry.getSingleMetric('controller_runtime_reconcile_errors_total')?.get();
    expect(errors?.values[0]?.value).toBe(3);
    // Success reset the backoff: the next failure waits 5 ms again.
    await timers.advance(1_000, settle);
    expect(r.calls).toHaveLength(4);
  });

  it('counts a reconcile that fails with a programming error as a panic as well as an error', async () => {
    const { cluster, manager, settle, timers, clock, registry } = setup();
    const r = recording('widget.buggy', async (_key, call) => {
      if (call === 1) throw new Error('apiserver unavailable');
      if (call === 2) (undefined as unknown as { spec: { size: number } }).spec.size;
      return undefined;
    });
    r.bind(clock);
    manager.register(r.controller).start();
    await cluster.create(Widgets, widget('a'));
    await settle();
    await timers.advance(1_000, settle);
    expect(r.calls).toHaveLength(3);
    const count = async (name: string) =>
      (await registry.getSingleMetric(name)?.get())?.values.find(
        (v) => v.labels.controller === 'widget.buggy',
      )?.value;
    expect(await count('controller_runtime_reconcile_errors_total')).toBe(2);
    expect(await count('controller_runtime_reconcile_panics_total')).toBe(1);
  });

  it('does not retry a terminal error, counts it, and runs the key again when the object changes', async () => {
    const { cluster, manager, settle, timers, clock, registry } = setup();
    const r = recording('widget.impossible', async (key) => {
      const size = (await cluster.get(Widgets, key)).spec?.size ?? 1;
      if (size > 1) {
        throw new Error('launch failed', { cause: new TerminalReconcileError(`size ${size} is impossible`) });
      }
      return undefined;
    });
    r.bind(clock);
    const count = async (name: string) =>
      (await registry.getSingleMetric(name)?.get())?.values.find(
        (v) => v.labels.controller === 'widget.impossible',
      )?.value;
    manager.register(r.controller).start();
    // Zero from the start, as controller-runtime initialises them.
    expect(await count('controller_runtime_terminal_reconcile_errors_total')).toBe(0);
    expect(await count('controller_runtime_reconcile_errors_total')).toBe(0);
    await cluster.create(Widgets, widget('a', 2));
    await settle();
    await timers.advance(60_000, settle);
    expect(r.calls).toHaveLength(1);
    expect(await count('controller_runtime_terminal_reconcile_errors_total')).toBe(1);
    expect(await count('controller_runtime_reconcile_errors_total')).toBe(1);
    expect(await count('workqueue_retries_total')).toBeUndefined();

    await cluster.patch(Widgets, { name: 'a' }, { spec: { size: 1 } });
    await settle();
    expect(r.calls).toHaveLength(2);
  });

  it('honours requeueAfter exactly, and an event in between runs the key early', async () => {
    const { cluster, manager, settle, timers, clock } = setup();
    const r = recording('widget.periodic', async () => ({ requeueAfterMs: 60_000 }));
    r.bind(clock);
    manager.register(r.controller).start();
    await cluster.create(Widgets, widget('a'));
    await settle();
    expect(manager.requeueAt('widget.periodic', { name: 'a' })).toBe(START + 60_000);
    await timers.advance(60_000, settle);
    expect(r.calls.map((c) => c.at - START)).toEqual([0, 60_000]);
    await timers.advance(10_000, settle);
    await cluster.patch(Widgets, { name: 'a' }, { spec: { size: 2 } });
    await settle();
    await timers.advance(60_000, settle);
    expect(r.calls.map((c) => c.at - START)).toEqual([0, 60_000, 70_000, 130_000]);
  });

  it('never runs one key twice at once, but runs different keys concurrently', async () => {
    const { cluster, manager, settle } = setup();
    const running = new Map<string, number>();
    let maxSameKey = 0;
    let maxTotal = 0;
    const releases: (() => void)[] = [];
    const r = recording(
      'widget.slow',
      async (key) => {
        const k = keyString(key);
        running.set(k, (running.get(k) ?? 0) + 1);
        maxSameKey = Math.max(maxSameKey, running.get(k)!);
        maxTotal = Math.max(
          maxTotal,
          [...running.values()].reduce((a, b) => a + b, 0),
        );
        await new Promise<void>((resolve) => releases.push(resolve));
        running.set(k, running.get(k)! - 1);
        return undefined;
      },
      { maxConcurrentReconciles: 4 },
    );
    manager.register(r.controller).start();
    await cluster.create(Widgets, widget('a'));
    await cluster.create(Widgets, widget('b'));
    await cluster.settled();
    await Promise.resolve();
    // Both keys run; more events for "a" while it runs only mark it dirty.
    await cluster.patch(Widgets, { name: 'a' }, { spec: { size: 5 } });
    await cluster.patch(Widgets, { name: 'a' }, { spec: { size: 6 } });
    await cluster.settled();
    while (releases.length > 0 || !manager.controllers().length) {
      releases.shift()?.();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await settle();
    expect(maxSameKey).toBe(1);
    expect(maxTotal).toBe(2);
    expect(r.calls.map((c) => c.key)).toEqual(['a', 'b', 'a']);
  });

  it('exports how long keys wait and work, and the work still running at scrape time', async () => {
    const { cluster, manager, settle, clock, registry } = setup();
    let release: () => void = () => {};
    const r = recording('widget.stuck', () => new Promise((resolve) => (release = () => resolve(undefined))));
    manager.register(r.controller).start();
    await cluster.create(Widgets, widget('a'));
    await cluster.settled();
    await new Promise((resolve) => setTimeout(resolve, 0));
    clock.step(90_000);
    const gauge = async (name: string) =>
      (await registry.getSingleMetric(name)?.get())?.values.find(
        (v) => v.labels.controller === 'widget.stuck',
      )?.value;
    // Stuck for 90 s: visible while it runs, before any duration is observed.
    expect(await gauge('workqueue_unfinished_work_seconds')).toBe(90);
    expect(await gauge('workqueue_longest_running_processor_seconds')).toBe(90);
    release();
    await settle();
    expect(await gauge('workqueue_unfinished_work_seconds')).toBe(0);
    const histogram = async (name: string) =>
      (await registry.getSingleMetric(name)?.get())?.values.find(
        (v) =>
          v.labels.controller === 'widget.stuck' &&
          (v as { metricName?: string }).metricName === `${name}_sum`,
      )?.value;
    expect(await histogram('workqueue_work_duration_seconds')).toBe(90);
    expect(await histogram('workqueue_queue_duration_seconds')).toBe(0);
  });

  it('maps events of related kinds to keys and serves the cache', async () => {
    const { cluster, manager, settle } = setup();
    const r = recording('widget.gadgets', async () => undefined, {
      watches: [
        watchMapped(Gadgets, (gadget, cache) => {
          const owner = gadget.metadata.labels?.widget;
          return owner !== undefined && cache.get(Widgets, { name: owner }) !== undefined
            ? [{ name: owner }]
            : [];
        }),
        watchSelf(Widgets, (e) => e.type === 'ADDED'),
      ],
    });
    manager.register(r.controller).start();
    await cluster.create(Widgets, widget('w1'));
    await settle();
    await cluster.create(Gadgets, {
      apiVersion: 'example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g', namespace: 'default', labels: { widget: 'w1' } },
    });
    await cluster.create(Gadgets, {
      apiVersion: 'example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'h', namespace: 'default', labels: { widget: 'nope' } },
    });
    await cluster.patch(Widgets, { name: 'w1' }, { spec: { size: 9 } });
    await settle();
    expect(r.calls.map((c) => c.key)).toEqual(['w1', 'w1']);
    expect(manager.cache.list(Gadgets).map((g) => g.metadata.name)).toEqual(['g', 'h']);
    expect(() =>
      manager.cache.list(resourceType({ apiVersion: 'v1', kind: 'Pod', namespaced: true })),
    ).toThrow(/not watched/);
  });

  it('caches and hands controllers objects without managedFields', async () => {
    const { cluster, manager, settle } = setup();
    const seen: (KubeObject['metadata']['managedFields'] | 'none')[] = [];
    const r = recording('widget.fields', async () => undefined, {
      watches: [
        watchMapped(Widgets, (w) => {
          seen.push(w.metadata.managedFields ?? 'none');
          return [];
        }),
      ],
    });
    manager.register(r.controller).start();
    await cluster.create(Widgets, widget('w1'));
    await cluster.patch(Widgets, { name: 'w1' }, { spec: { size: 9 } });
    await settle();
    expect(seen).toEqual(['none', 'none']);
    expect(manager.cache.get(Widgets, { name: 'w1' })?.metadata).not.toHaveProperty('managedFields');
    expect(manager.cache.get(Widgets, { name: 'w1' })?.spec?.size).toBe(9);
    expect((await cluster.get(Widgets, { name: 'w1' })).metadata.managedFields).toHaveLength(1);
  });

  it('runs initial keys of singleton controllers', async () => {
    const { manager, settle, timers } = setup();
    const r = recording('cluster.poller', async () => ({ requeueAfterMs: 1_000 }), {
      watches: [],
      initialKeys: [{ name: 'singleton' }],
    });
    manager.register(r.controller).start();
    await settle();
    await timers.advance(3_000, settle);
    expect(r.calls.map((c) => c.key)).toEqual(['singleton', 'singleton', 'singleton', 'singleton']);
  });

  it('restarts a failed watch, re-listing after Gone and reporting objects deleted meanwhile', async () => {
    let inject: ((error: GoneError | NotFoundError) => void) | undefined;
    const { cluster, manager, settle, timers } = setup((memory) => {
      const port = Object.create(memory) as ClusterPort;
      port.watch = (type, handler, options) => {
        const w = memory.watch(type, handler as WatchHandler, options);
        inject = (error) => {
          w.stop();
          void (handler as WatchHandler)({ type: 'ERROR', error });
        };
        return w;
      };
      return port;
    });
    const seen: string[] = [];
    const r = recording('widget.deletions', async (key) => {
      const exists = await cluster.get(Widgets, key).then(
        () => true,
        () => false,
      );
      seen.push(`${keyString(key)}:${exists ? 'present' : 'gone'}`);
      return undefined;
    });
    manager.register(r.controller).start();
    await cluster.create(Widgets, widget('a'));
    await cluster.create(Widgets, widget('b'));
    await settle();
    expect(manager.cacheSync().synced).toBe(true);
    inject?.(new GoneError('too old resource version'));
    await cluster.delete(Widgets, { name: 'a' });
    await cluster.create(Widgets, widget('c'));
    await settle();
    expect(seen).toEqual(['a:present', 'b:present']);
    // Between the Gone and the delivered relist the cache may hold deleted objects: unsynced.
    expect(manager.cacheSync()).toMatchObject({ synced: false, listing: ['widgets'] });
    await timers.advance(1_000, settle);
    expect(seen.slice(2).sort()).toEqual(['a:gone', 'b:present', 'c:present']);
    expect(manager.cacheSync().synced).toBe(true);
    expect(manager.cache.list(Widgets).map((w) => w.metadata.name)).toEqual(['b', 'c']);
  });

  it('stops: no reconcile runs after stop, and the abort signal stops it too', async () => {
    const { cluster, manager, settle, timers } = setup();
    const r = recording('widget.stop', async () => ({ requeueAfterMs: 100 }));
    const abort = new AbortController();
    manager.register(r.controller).start(abort.signal);
    await cluster.create(Widgets, widget('a'));
    await settle();
    abort.abort();
    await manager.stop();
    await cluster.create(Widgets, widget('b'));
    await timers.advance(1_000, settle);
    expect(r.calls.map((c) => c.key)).toEqual(['a']);
    expect(() => manager.register(recording('late').controller)).toThrow(/before the manager starts/);
  });
  it('with startInformers only, caches sync and keys queue but nothing reconciles until startControllers', async () => {
    const { cluster, manager, settle } = setup();
    await cluster.create(Widgets, widget('a'));
    const r = recording('widget.standby', async () => undefined, { initialKeys: [{ name: 'tick' }] });
    manager.register(r.controller);
    manager.startInformers();
    await manager.synced();
    await cluster.create(Widgets, widget('b'));
    await cluster.settled();
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(manager.hasSynced()).toBe(true);
    expect(manager.isRunning()).toBe(false);
    expect(manager.cache.list(Widgets).map((w) => w.metadata.name)).toEqual(['a', 'b']);
    expect(r.calls).toEqual([]);

    manager.startControllers();
    await settle();
    expect(manager.isRunning()).toBe(true);
    expect(r.calls.map((c) => c.key).sort()).toEqual(['a', 'b', 'tick']);
    expect(() => manager.register(recording('widget.late').controller)).toThrow(/before the manager starts/);
    await manager.stop();
    expect(manager.isRunning()).toBe(false);
  });
});
