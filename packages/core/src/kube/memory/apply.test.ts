import { describe, expect, it } from 'vitest';
import { isBadRequest, isConflict, isInvalid, isNotFound, type KubeError } from '../errors.js';
import type { KubeObject } from '../object.js';
import { Pods } from '../resource-types.js';
import { newCluster, type Widget, Widgets, widget } from './test-fixtures.js';

async function failure(promise: Promise<unknown>): Promise<KubeError> {
  try {
    await promise;
  } catch (err) {
    return err as KubeError;
  }
  throw new Error('expected the call to fail');
}

const config = (spec: Widget['spec'], extra: Partial<Widget['metadata']> = {}): Widget => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'a', ...extra },
  spec,
});

describe('server-side apply', () => {
  it('creates a missing object and records the field manager', async () => {
    const { cluster } = newCluster();
    const out = await cluster.apply<Widget>(Widgets, config({ size: 1, color: 'red' }), {
      fieldManager: 'ctrl',
    });
    expect(out.spec).toEqual({ size: 1, color: 'red' });
    expect(out.metadata.uid).toBeDefined();
    expect(out.metadata.managedFields).toEqual([
      expect.objectContaining({
        manager: 'ctrl',
        operation: 'Apply',
        fieldsV1: { 'f:spec': { 'f:size': {}, 'f:color': {} } },
      }),
    ]);
  });

  it('sets only the fields given and leaves fields of other writers alone', async () => {
    const { cluster } = newCluster();
    await cluster.create(Widgets, widget('a', { size: 1, tags: ['x'] }), { fieldManager: 'creator' });
    const out = await cluster.apply<Widget>(Widgets, config({ color: 'blue' }), { fieldManager: 'ctrl' });
    expect(out.spec).toEqual({ size: 1, tags: ['x'], color: 'blue' });
  });

  it('removes fields a manager stops applying', async () => {
    const { cluster } = newCluster();
    await cluster.apply(Widgets, config({ size: 1, color: 'red' }, { labels: { a: '1', b: '2' } }), {
      fieldManager: 'ctrl',
    });
    const out = await cluster.apply<Widget>(Widgets, config({ size: 2 }, { labels: { a: '1' } }), {
      fieldManager: 'ctrl',
    });
    expect(out.spec).toEqual({ size: 2 });
    expect(out.metadata.labels).toEqual({ a: '1' });
  });

  it('conflicts with a field another manager set to a different value, unless forced', async () => {
    const { cluster } = newCluster();
    await cluster.create(Widgets, widget('a', { size: 3 }), { fieldManager: 'kubectl' });
    const err = await failure(cluster.apply(Widgets, config({ size: 5 }), { fieldManager: 'ctrl' }));
    expect(isConflict(err)).toBe(true);
    expect(err.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl" using example.com/v1: .spec.size',
    );
    expect((await cluster.get(Widgets, { name: 'a' })).spec?.size).toBe(3);
    const same = await cluster.apply<Widget>(Widgets, config({ size: 3 }), { fieldManager: 'ctrl' });
    expect(same.spec?.size).toBe(3);
    const forced = await cluster.apply<Widget>(Widgets, config({ size: 5 }), {
      fieldManager: 'ctrl',
      force: true,
    });
    expect(forced.spec?.size).toBe(5);
    // Forcing took .spec.size from kubectl, which still owns the spec map it created; Apply
    // entries sort before Update ones, as kube-apiserver orders them.
    expect(forced.metadata.managedFields?.map((m) => [m.manager, m.operation, m.fieldsV1])).toEqual([
      ['ctrl', 'Apply', { 'f:spec': { 'f:size': {} } }],
      ['kubectl', 'Update', { 'f:spec': {} }],
    ]);
  });

  it('lets controllers share finalizers, each owning its own', async () => {
    const { cluster } = newCluster();
    await cluster.apply(Widgets, config({}, { finalizers: ['one.io/f'] }), { fieldManager: 'one' });
    await cluster.apply(Widgets, config({}, { finalizers: ['two.io/f'] }), { fieldManager: 'two' });
    expect((await cluster.get(Widgets, { name: 'a' })).metadata.finalizers).toEqual(['one.io/f', 'two.io/f']);
    const out = await cluster.apply<Widget>(Widgets, config({}), { fieldManager: 'one' });
    expect(out.metadata.finalizers).toEqual(['two.io/f']);
  });

  it('ignores status on the main resource and applies it through applyStatus', async () => {
    const { cluster } = newCluster();
    const created = await cluster.apply<Widget>(
      Widgets,
      { ...config({ size: 1 }), status: { phase: 'Forged' } },
      { fieldManager: 'ctrl' },
    );
    expect(created.status).toBeUndefined();
    const withStatus = await cluster.applyStatus<Widget>(
      Widgets,
      { ...config({ size: 99 }), status: { phase: 'Ready' } },
      { fieldManager: 'ctrl' },
    );
    expect(withStatus.status).toEqual({ phase: 'Ready' });
    expect(withStatus.spec?.size).toBe(1);
    expect(withStatus.metadata.managedFields?.map((m) => m.subresource ?? 'main')).toEqual([
      'main',
      'status',
    ]);
    expect(
      isNotFound(
        await failure(
          cluster.applyStatus(Widgets, { ...config({}), metadata: { name: 'zz' } }, { fieldManager: 'x' }),
        ),
      ),
    ).toBe(true);
  });

  it('requires a field manager, matching kind and a name, and honours a resourceVersion', async () => {
    const { cluster } = newCluster();
    const noManager = await failure(cluster.apply(Widgets, config({}), { fieldManager: '' }));
    expect(isInvalid(noManager)).toBe(true);
    expect(noManager.message).toBe(
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
    expect(
      isBadRequest(await failure(cluster.apply(Pods, config({}) as KubeObject, { fieldManager: 'x' }))),
    ).toBe(true);
    expect(
      isBadRequest(
        await failure(cluster.apply(Widgets, { ...config({}), metadata: {} }, { fieldManager: 'x' })),
      ),
    ).toBe(true);
    const created = await cluster.apply<Widget>(Widgets, config({ size: 1 }), { fieldManager: 'x' });
    await cluster.apply(Widgets, config({ size: 2 }), { fieldManager: 'x' });
    const stale = config({ size: 3 }, { resourceVersion: created.metadata.resourceVersion as string });
    expect(isConflict(await failure(cluster.apply(Widgets, stale, { fieldManager: 'x' })))).toBe(true);
  });

  it('records update managers so a later apply sees them', async () => {
    const { cluster } = newCluster();
    await cluster.apply(Widgets, config({ size: 1 }), { fieldManager: 'ctrl' });
    await cluster.patch(Widgets, { name: 'a' }, { spec: { size: 2 } }, { fieldManager: 'human' });
    const live = await cluster.get(Widgets, { name: 'a' });
    expect(live.metadata.managedFields?.map((m) => `${m.manager}/${m.operation}`)).toEqual(['human/Update']);
    const err = await failure(cluster.apply(Widgets, config({ size: 1 }), { fieldManager: 'other' }));
    expect(isConflict(err)).toBe(true);
  });
});
