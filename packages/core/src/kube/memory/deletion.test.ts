import { describe, expect, it } from 'vitest';
import { isConflict, isForbidden, isInvalid, isNotFound, type KubeError } from '../errors.js';
import type { KubeObject } from '../object.js';
import type { ResourceType } from '../resource-type.js';
import { Namespaces, Pods as TypedPods } from '../resource-types.js';
import { newCluster, podObject, type Widget, Widgets, widget } from './test-fixtures.js';

// The port's contract is kind-agnostic: these tests write objects with only the fields at stake.
const Pods: ResourceType = TypedPods;

async function failure(promise: Promise<unknown>): Promise<KubeError> {
  try {
    await promise;
  } catch (err) {
    return err as KubeError;
  }
  throw new Error('expected the call to fail');
}

const withFinalizers = (name: string, finalizers: string[]): Widget => ({
  ...widget(name, { size: 1 }),
  metadata: { name, finalizers },
});

describe('deletion and finalizers', () => {
  it('deletes an object without finalizers at once', async () => {
    const { cluster } = newCluster();
    await cluster.create(Widgets, widget('a'));
    const result = await cluster.delete(Widgets, { name: 'a' });
    expect(result.deleted).toBe(true);
    expect(isNotFound(await failure(cluster.get(Widgets, { name: 'a' })))).toBe(true);
    expect(isNotFound(await failure(cluster.delete(Widgets, { name: 'a' })))).toBe(true);
  });

  it('holds an object with finalizers until the last one is removed', async () => {
    const { cluster, clock } = newCluster();
    await cluster.create(Widgets, withFinalizers('a', ['example.com/one', 'example.com/two']));
    clock.step(5_000);
    const result = await cluster.delete(Widgets, { name: 'a' });
    expect(result.deleted).toBe(false);
    expect(result.object.metadata.deletionTimestamp).toBe('2026-03-01T12:00:05Z');
    expect(result.object.metadata.generation).toBe(2);

    clock.step(5_000);
    const again = await cluster.delete(Widgets, { name: 'a' });
    expect(again.object.metadata.deletionTimestamp).toBe('2026-03-01T12:00:05Z');

    const first = await cluster.patch<Widget>(
      Widgets,
      { name: 'a' },
      { metadata: { finalizers: ['example.com/two'] } },
    );
    expect(first.metadata.finalizers).toEqual(['example.com/two']);
    const live = await cluster.get(Widgets, { name: 'a' });
    await cluster.update(Widgets, { ...live, metadata: { ...live.metadata, finalizers: [] } });
    expect(isNotFound(await failure(cluster.get(Widgets, { name: 'a' })))).toBe(true);
  });

  it('forbids adding finalizers to a deleting object but allows other updates', async () => {
    const { cluster } = newCluster();
    await cluster.create(Widgets, withFinalizers('a', ['example.com/one']));
    await cluster.delete(Widgets, { name: 'a' });
    const err = await failure(
      cluster.patch(
        Widgets,
        { name: 'a' },
        { metadata: { finalizers: ['example.com/one', 'example.com/new'] } },
      ),
    );
    expect(isInvalid(err)).toBe(true);
    expect(err.message).toContain('no new finalizers can be added if the object is being deleted');
    const updated = await cluster.patch<Widget>(
      Widgets,
      { name: 'a' },
      { spec: { color: 'blue' }, metadata: { labels: { a: 'b' } } },
    );
    expect(updated.spec?.color).toBe('blue');
    expect(updated.metadata.deletionTimestamp).toBeDefined();
  });

  it('keeps deletionTimestamp through updates and refuses setting it by hand', async () => {
    const { cluster } = newCluster();
    const a = await cluster.create(Widgets, widget('a'));
    const err = await failure(
      cluster.update(Widgets, {
        ...a,
        metadata: { ...a.metadata, deletionTimestamp: '2026-03-01T12:00:00Z' },
      }),
    );
    expect(isInvalid(err)).toBe(true);
    await cluster.create(Widgets, withFinalizers('b', ['x.io/f']));
    const { object } = await cluster.delete(Widgets, { name: 'b' });
    const cleared = { ...object, metadata: { ...object.metadata } };
    delete cleared.metadata.deletionTimestamp;
    const after = await cluster.update(Widgets, { ...cleared, spec: { size: 2 } });
    expect(after.metadata.deletionTimestamp).toBe(object.metadata.deletionTimestamp);
  });

  it('checks uid and resourceVersion preconditions', async () => {
    const { cluster } = newCluster();
    const a = await cluster.create(Widgets, widget('a'));
    expect(
      isConflict(await failure(cluster.delete(Widgets, { name: 'a' }, { preconditions: { uid: 'other' } }))),
    ).toBe(true);
    await cluster.patch(Widgets, { name: 'a' }, { spec: { size: 2 } });
    const stale = { resourceVersion: a.metadata.resourceVersion as string };
    const err = await failure(cluster.delete(Widgets, { name: 'a' }, { preconditions: stale }));
    expect(isConflict(err)).toBe(true);
    expect(err.message).toBe(
      `Operation cannot be fulfilled on Widget.example.com "a": the ResourceVersion in the precondition (${stale.resourceVersion}) does not match the ResourceVersion in record (${(await cluster.get(Widgets, { name: 'a' })).metadata.resourceVersion}). The object might have been modified`,
    );
    expect(err.details).toMatchObject({ name: 'a', group: 'example.com', kind: 'Widget' });
    const ok = await cluster.delete(
      Widgets,
      { name: 'a' },
      { preconditions: { uid: a.metadata.uid as string } },
    );
    expect(ok.deleted).toBe(true);
  });

  it('emits MODIFIED when deletion starts and DELETED when the object goes', async () => {
    const { cluster } = newCluster();
    const events: string[] = [];
    const w = cluster.watch(Widgets, (e) => {
      if (e.type !== 'ERROR')
        events.push(`${e.type} ${e.object.metadata.deletionTimestamp === undefined ? 'live' : 'deleting'}`);
    });
    await cluster.create(Widgets, withFinalizers('a', ['x.io/f']));
    await cluster.delete(Widgets, { name: 'a' });
    await cluster.patch(Widgets, { name: 'a' }, { metadata: { finalizers: null } });
    await cluster.settled();
    expect(events).toEqual(['ADDED live', 'MODIFIED deleting', 'DELETED deleting']);
    w.stop();
  });
});

describe('graceful pod deletion', () => {
  it('removes pods at once by default, as an instant kubelet would', async () => {
    const { cluster } = newCluster();
    await cluster.create(Pods, podObject('p'));
    expect((await cluster.delete(Pods, { name: 'p', namespace: 'default' })).deleted).toBe(true);
  });

  it('keeps a bound pod Terminating for its grace period when kubelets are emulated', async () => {
    const { cluster } = newCluster({ gracefulPodDeletion: true });
    await cluster.create(Pods, podObject('p', { terminationGracePeriodSeconds: 60 }));
    const first = await cluster.delete(Pods, { name: 'p', namespace: 'default' });
    expect(first.deleted).toBe(false);
    expect(first.object.metadata.deletionGracePeriodSeconds).toBe(60);
    expect(first.object.metadata.deletionTimestamp).toBe('2026-03-01T12:01:00Z');

    const shorter = await cluster.delete(
      Pods,
      { name: 'p', namespace: 'default' },
      { gracePeriodSeconds: 10 },
    );
    expect(shorter.object.metadata.deletionTimestamp).toBe('2026-03-01T12:00:10Z');
    const longer = await cluster.delete(
      Pods,
      { name: 'p', namespace: 'default' },
      { gracePeriodSeconds: 30 },
    );
    expect(longer.object.metadata.deletionGracePeriodSeconds).toBe(10);

    const final = await cluster.delete(Pods, { name: 'p', namespace: 'default' }, { gracePeriodSeconds: 0 });
    expect(final.deleted).toBe(true);
  });

  it('deletes unscheduled and terminal pods without grace', async () => {
    const { cluster } = newCluster({ gracefulPodDeletion: true });
    await cluster.create(Pods, podObject('pending', { nodeName: '' }));
    expect((await cluster.delete(Pods, { name: 'pending', namespace: 'default' })).deleted).toBe(true);
    const done = await cluster.create(Pods, podObject('done'));
    await cluster.updateStatus(Pods, { ...done, status: { phase: 'Succeeded' } } as KubeObject);
    expect((await cluster.delete(Pods, { name: 'done', namespace: 'default' })).deleted).toBe(true);
  });

  it('does not let removing finalizers cut a pending grace period short', async () => {
    const { cluster } = newCluster({ gracefulPodDeletion: true });
    await cluster.create(Pods, podObject('p', { finalizers: ['x.io/f'] }));
    await cluster.delete(Pods, { name: 'p', namespace: 'default' });
    await cluster.patch(Pods, { name: 'p', namespace: 'default' }, { metadata: { finalizers: null } });
    const pod = await cluster.get(Pods, { name: 'p', namespace: 'default' });
    expect(pod.metadata.deletionGracePeriodSeconds).toBe(30);
    expect(
      (await cluster.delete(Pods, { name: 'p', namespace: 'default' }, { gracePeriodSeconds: 0 })).deleted,
    ).toBe(true);
  });
});

describe('namespace termination', () => {
  it('empties a namespace through the normal delete path, then removes it', async () => {
    const { cluster } = newCluster();
    await cluster.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    await cluster.create(Pods, podObject('a', { namespace: 'team' }));
    await cluster.create(Pods, podObject('b', { namespace: 'team', finalizers: ['x.io/hold'] }));
    const { object } = await cluster.delete(Namespaces, { name: 'team' });
    expect((object as { status?: { phase?: string } }).status?.phase).toBe('Terminating');
    const refused = await failure(cluster.create(Pods, podObject('c', { namespace: 'team' })));
    expect(isForbidden(refused)).toBe(true);
    await cluster.settled();

    expect((await cluster.list(Pods, { namespace: 'team' })).items.map((p) => p.metadata.name)).toEqual([
      'b',
    ]);
    expect((await cluster.get(Namespaces, { name: 'team' })).metadata.deletionTimestamp).toBeDefined();
    await cluster.patch(Pods, { name: 'b', namespace: 'team' }, { metadata: { finalizers: null } });
    await cluster.settled();
    expect(isNotFound(await failure(cluster.get(Namespaces, { name: 'team' })))).toBe(true);
  });
});
