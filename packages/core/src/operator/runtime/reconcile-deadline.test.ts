import { getEventListeners } from 'node:events';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/clock.js';
import { ManualTimers } from '../../clock/timers.js';
import { MemoryCluster } from '../../kube/memory/memory-cluster.js';
import type { KubeObject } from '../../kube/object.js';
import { resourceType } from '../../kube/resource-type.js';
import { type Controller, watchSelf } from './controller.js';
import { keyString } from './keys.js';
import { Manager } from './manager.js';
import { ReconcileDeadlineExceeded, withReconcileDeadline } from './reconcile-deadline.js';

const Widgets = resourceType<KubeObject>({ apiVersion: 'example.com/v1', kind: 'Widget', namespaced: false });
const START = Date.parse('2026-03-01T12:00:00Z');

function setup(reconcileDeadlineMs?: number) {
  const clock = new FakeClock(START);
  const timers = new ManualTimers(clock);
  const cluster = new MemoryCluster({ clock, kinds: [Widgets] });
  const registry = new Registry();
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  const manager = new Manager({
    cluster,
    clock,
    timers,
    registry,
    logger: pino({ level: 'info' }, sink),
    settleCluster: () => cluster.settled(),
    elapsed: () => clock.now() / 1000,
    ...(reconcileDeadlineMs === undefined ? {} : { reconcileDeadlineMs }),
  });
  return { clock, timers, cluster, registry, manager, lines };
}

const widget = (name: string): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name },
});

async function errorCount(registry: Registry, controller: string): Promise<number> {
  const metric = await registry.getSingleMetric('controller_runtime_reconcile_errors_total')?.get();
  return metric?.values.find((v) => v.labels.controller === controller)?.value ?? 0;
}

describe('withReconcileDeadline', () => {
  it('answers with the reconcile when it finishes in time, and cancels its timer', async () => {
    const timers = new ManualTimers(new FakeClock(0));
    const result = await withReconcileDeadline(timers, 1_000, new AbortController().signal, async () => 7);
    expect(result).toBe(7);
    expect(timers.pending()).toBe(0);
  });

  it('rejects at the deadline with the reason and aborts the signal, though the reconcile never settles', async () => {
    const clock = new FakeClock(0);
    const timers = new ManualTimers(clock);
    let seen: AbortSignal | undefined;
    const outcome = withReconcileDeadline(timers, 2_500, new AbortController().signal, (signal) => {
      seen = signal;
      return new Promise<number>(() => {});
    }).then(
      () => undefined,
      (err: unknown) => err,
    );
    await timers.advance(2_499);
    expect(seen?.aborted).toBe(false);
    await timers.advance(1);
    const err = await outcome;
    expect(err).toBeInstanceOf(ReconcileDeadlineExceeded);
    expect((err as Error).message).toBe('reconcile exceeded its deadline of 2.5 s');
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe(err);
  });

  it("passes the parent's abort on to the reconcile's signal", async () => {
    const parent = new AbortController();
    let seen: AbortSignal | undefined;
    const run = withReconcileDeadline(new ManualTimers(new FakeClock(0)), 1_000, parent.signal, (signal) => {
      seen = signal;
      return new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    });
    parent.abort(new Error('manager stopped'));
    await run;
    expect(seen?.aborted).toBe(true);
  });

  it('starts a reconcile whose parent has already aborted with its signal aborted, for the same reason', async () => {
    const parent = new AbortController();
    const reason = new Error('manager stopped');
    parent.abort(reason);
    const seen = await withReconcileDeadline(
      new ManualTimers(new FakeClock(0)),
      1_000,
      parent.signal,
      async (signal) => signal,
    );
    expect(seen.aborted).toBe(true);
    expect(seen.reason).toBe(reason);
  });

  it("leaves nothing listening on the parent's signal once the reconcile settles", async () => {
    const parent = new AbortController();
    const timers = new ManualTimers(new FakeClock(0));
    for (let i = 0; i < 50; i++) await withReconcileDeadline(timers, 1_000, parent.signal, async () => i);
    await expect(
      withReconcileDeadline(timers, 1_000, parent.signal, async () => {
        throw new Error('failed');
      }),
    ).rejects.toThrow('failed');
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
  });
});

describe('Manager: reconcile deadlines', () => {
  it('abandons a reconcile that ignores its signal: logs the reason, counts an error, frees the worker, retries with backoff', async () => {
    const { clock, timers, cluster, registry, manager, lines } = setup(60_000);
    const runs: { key: string; at: number }[] = [];
    let lateWrite = false;
    const controller: Controller = {
      name: 'widget.stuck',
      watches: [watchSelf(Widgets)],
      async reconcile(key) {
        runs.push({ key: keyString(key), at: clock.now() });
        if (key.name === 'stuck' && runs.filter((r) => r.key === 'stuck').length === 1) {
          // A call that never answers and ignores the signal; its result must be dropped.
          await new Promise<void>(() => {});
          lateWrite = true;
        }
        return undefined;
      },
    };
    manager.register(controller);
    await cluster.create(Widgets, widget('stuck'));
    manager.start();
    await manager.synced();
    // Only one worker (maxConcurrentReconciles 1): 'other' waits behind the stuck reconcile.
    await cluster.create(Widgets, widget('other'));
    await cluster.settled();
    expect(runs.map((r) => r.key)).toEqual(['stuck']);
    expect(await errorCount(registry, 'widget.stuck')).toBe(0);

    // manager.settled() would wait for the stuck reconcile; let the queue's microtasks run instead.
    const drain = async () => {
      await cluster.settled();
      for (let i = 0; i < 20; i++) await Promise.resolve();
    };
    await timers.advance(60_000, drain);
    expect(runs.map((r) => r.key)).toEqual(['stuck', 'other']);
    await timers.advance(5, drain);
    // The stuck reconcile was abandoned at 60 s: the worker took 'other', and 'stuck' ran again
    // after its backoff (5 ms, controller-runtime's first step).
    expect(runs.map((r) => r.key)).toEqual(['stuck', 'other', 'stuck']);
    expect(runs[1]?.at).toBe(START + 60_000);
    expect(runs[2]?.at).toBe(START + 60_005);
    expect(await errorCount(registry, 'widget.stuck')).toBe(1);
    const abandoned = lines.find((l) => l.msg === 'Reconcile abandoned');
    expect(abandoned).toMatchObject({
      controller: 'widget.stuck',
      key: 'stuck',
      reason: 'reconcile exceeded its deadline of 60 s',
      deadlineSeconds: 60,
      retryInMs: 5,
      level: 50,
    });
    expect(lateWrite).toBe(false);
    console.info(
      JSON.stringify({
        message: 'fault measured',
        fault: 'a reconcile that never returns and ignores its signal; deadline 60 s, 1 worker',
        'abandoned-at-ms': (runs[1]?.at ?? 0) - START,
        'queued-key-ran-at-ms': (runs[1]?.at ?? 0) - START,
        'stuck-key-retried-at-ms': (runs[2]?.at ?? 0) - START,
        'reconcile-errors-counted': await errorCount(registry, 'widget.stuck'),
        reason: abandoned?.reason,
      }),
    );
    await manager.stop();
  });

  it("a controller's own deadline overrides the manager's, and a reconcile within it is untouched", async () => {
    const { clock, timers, cluster, registry, manager } = setup();
    const seen: AbortSignal[] = [];
    const controller: Controller = {
      name: 'widget.slow',
      watches: [watchSelf(Widgets)],
      reconcileDeadlineMs: 1_000,
      async reconcile(_key, context) {
        seen.push(context.signal);
        // Waits for the abort it is given, as a well-behaved reconcile does.
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
        return undefined;
      },
    };
    manager.register(controller);
    await cluster.create(Widgets, widget('a'));
    manager.start();
    await manager.synced();
    await cluster.settled();
    expect(seen).toHaveLength(1);
    await timers.advance(999);
    expect(seen[0]?.aborted).toBe(false);
    await timers.advance(1);
    expect(seen[0]?.aborted).toBe(true);
    expect(String(seen[0]?.reason)).toBe('ReconcileDeadlineExceeded: reconcile exceeded its deadline of 1 s');
    expect(await errorCount(registry, 'widget.slow')).toBe(1);
    expect(clock.now()).toBe(START + 1_000);
    await manager.stop();
  });
});
