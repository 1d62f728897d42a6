import { describe, expect, it } from 'vitest';
import { isNotFound, type KubeError } from '../errors.js';
import type { KubeObject, OwnerReference } from '../object.js';
import { ReplicaSets } from '../resource-types.js';
import { newCluster, type Widget, Widgets, widget } from './test-fixtures.js';

function ownedBy(owner: KubeObject, extra: Partial<OwnerReference> = {}): OwnerReference {
  return {
    apiVersion: owner.apiVersion as string,
    kind: owner.kind as string,
    name: owner.metadata.name as string,
    uid: owner.metadata.uid as string,
    ...extra,
  };
}

function child(name: string, owners: OwnerReference[], finalizers?: string[]): Widget {
  return {
    ...widget(name),
    metadata: { name, ownerReferences: owners, ...(finalizers ? { finalizers } : {}) },
  };
}

async function exists(cluster: ReturnType<typeof newCluster>['cluster'], name: string): Promise<boolean> {
  try {
    await cluster.get(Widgets, { name });
    return true;
  } catch (err) {
    if (isNotFound(err as KubeError)) return false;
    throw err;
  }
}

describe('garbage collection', () => {
  it('deletes dependents in the background once their owner is gone, cascading', async () => {
    const { cluster } = newCluster();
    const root = await cluster.create(Widgets, widget('root'));
    const mid = await cluster.create(Widgets, child('mid', [ownedBy(root)]));
    await cluster.create(Widgets, child('leaf', [ownedBy(mid)]));
    await cluster.delete(Widgets, { name: 'root' });
    await cluster.settled();
    expect(await exists(cluster, 'mid')).toBe(false);
    expect(await exists(cluster, 'leaf')).toBe(false);
  });

  it('honours the finalizers of dependents', async () => {
    const { cluster } = newCluster();
    const owner = await cluster.create(Widgets, widget('owner'));
    await cluster.create(Widgets, child('held', [ownedBy(owner)], ['x.io/cleanup']));
    await cluster.delete(Widgets, { name: 'owner' });
    await cluster.settled();
    const held = await cluster.get(Widgets, { name: 'held' });
    expect(held.metadata.deletionTimestamp).toBeDefined();
    await cluster.patch(Widgets, { name: 'held' }, { metadata: { finalizers: null } });
    expect(await exists(cluster, 'held')).toBe(false);
  });

  it('keeps a dependent that still has a live owner, dropping the dangling reference', async () => {
    const { cluster } = newCluster();
    const a = await cluster.create(Widgets, widget('a'));
    const b = await cluster.create(Widgets, widget('b'));
    await cluster.create(Widgets, child('shared', [ownedBy(a), ownedBy(b)]));
    await cluster.delete(Widgets, { name: 'a' });
    await cluster.settled();
    const shared = await cluster.get(Widgets, { name: 'shared' });
    expect(shared.metadata.ownerReferences?.map((r) => r.name)).toEqual(['b']);
  });

  it('matches owners by uid, so a recreated owner does not adopt old dependents', async () => {
    const { cluster } = newCluster();
    const first = await cluster.create(Widgets, widget('owner'));
    await cluster.create(Widgets, child('dep', [ownedBy(first)], ['x.io/hold']));
    await cluster.delete(Widgets, { name: 'owner' });
    await cluster.create(Widgets, widget('owner'));
    await cluster.settled();
    expect((await cluster.get(Widgets, { name: 'dep' })).metadata.deletionTimestamp).toBeDefined();
  });

  it('deletes a dependent created with an owner that does not exist', async () => {
    const { cluster } = newCluster();
    await cluster.create(
      Widgets,
      child('orphaned', [
        { apiVersion: 'example.com/v1', kind: 'Widget', name: 'nobody', uid: 'no-such-uid' },
      ]),
    );
    await cluster.settled();
    expect(await exists(cluster, 'orphaned')).toBe(false);
  });

  it('leaves dependents of owners of unknown kinds alone', async () => {
    const { cluster } = newCluster();
    await cluster.create(
      Widgets,
      child('dep', [{ apiVersion: 'unknown.io/v1', kind: 'Thing', name: 't', uid: 'u' }]),
    );
    await cluster.settled();
    expect(await exists(cluster, 'dep')).toBe(true);
  });

  it('orphans dependents with propagationPolicy Orphan', async () => {
    const { cluster } = newCluster();
    const owner = await cluster.create(Widgets, widget('owner'));
    await cluster.create(Widgets, child('dep', [ownedBy(owner)]));
    const result = await cluster.delete(Widgets, { name: 'owner' }, { propagationPolicy: 'Orphan' });
    expect(result.object.metadata.finalizers).toEqual(['orphan']);
    await cluster.settled();
    expect(await exists(cluster, 'owner')).toBe(false);
    const dep = await cluster.get(Widgets, { name: 'dep' });
    expect(dep.metadata.ownerReferences).toBeUndefined();
    expect(dep.metadata.deletionTimestamp).toBeUndefined();
  });

  it('keeps a foreground-deleted owner until blocking dependents are gone', async () => {
    const { cluster } = newCluster();
    const owner = await cluster.create(Widgets, widget('owner'));
    await cluster.create(
      Widgets,
      child('blocker', [ownedBy(owner, { blockOwnerDeletion: true })], ['x.io/hold']),
    );
    await cluster.create(Widgets, child('plain', [ownedBy(owner)]));
    await cluster.delete(Widgets, { name: 'owner' }, { propagationPolicy: 'Foreground' });
    await cluster.settled();
    expect(await exists(cluster, 'plain')).toBe(false);
    const ownerNow = await cluster.get(Widgets, { name: 'owner' });
    expect(ownerNow.metadata.finalizers).toEqual(['foregroundDeletion']);
    expect((await cluster.get(Widgets, { name: 'blocker' })).metadata.deletionTimestamp).toBeDefined();
    await cluster.patch(Widgets, { name: 'blocker' }, { metadata: { finalizers: null } });
    await cluster.settled();
    expect(await exists(cluster, 'owner')).toBe(false);
  });

  it('collects namespaced dependents of a cluster-scoped owner across namespaces', async () => {
    const { cluster } = newCluster();
    const owner = await cluster.create(Widgets, widget('owner'));
    await cluster.create(ReplicaSets, {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'rs', namespace: 'kube-system', ownerReferences: [ownedBy(owner)] },
    });
    await cluster.delete(Widgets, { name: 'owner' });
    await cluster.settled();
    expect((await cluster.list(ReplicaSets)).items).toEqual([]);
  });
});
