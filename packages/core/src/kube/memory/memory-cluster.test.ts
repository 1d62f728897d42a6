import { describe, expect, it } from 'vitest';
import {
  isAlreadyExists,
  isBadRequest,
  isConflict,
  isForbidden,
  isInvalid,
  isNotFound,
  type KubeError,
} from '../errors.js';
import type { KubeObject } from '../object.js';
import type { ResourceType } from '../resource-type.js';
import { resourceType } from '../resource-type.js';
import { Namespaces, Nodes as TypedNodes, Pods as TypedPods } from '../resource-types.js';
import { Gadgets, newCluster, podObject, type Widget, Widgets, widget } from './test-fixtures.js';

// The port's contract is kind-agnostic: these tests write objects with only the fields at stake.
const Nodes: ResourceType = TypedNodes;
const Pods: ResourceType = TypedPods;

async function failure(promise: Promise<unknown>): Promise<KubeError> {
  try {
    await promise;
  } catch (err) {
    return err as KubeError;
  }
  throw new Error('expected the call to fail');
}

describe('MemoryCluster create and get', () => {
  it('fills uid, resourceVersion, generation and creationTimestamp from the injected clock and ids', async () => {
    const { cluster } = newCluster();
    const created = await cluster.create(Widgets, widget('a', { size: 1 }));
    expect(created.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata.generation).toBe(1);
    expect(created.metadata.creationTimestamp).toBe('2026-03-01T12:00:00Z');
    expect(created.apiVersion).toBe('example.com/v1');
    const again = await cluster.get(Widgets, { name: 'a' });
    expect(again).toEqual(created);
    const other = await cluster.create(Widgets, widget('b'));
    expect(Number(other.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
    expect(other.metadata.uid).not.toBe(created.metadata.uid);
  });

  it('gives deterministic uids and generated names', async () => {
    const run = async () => {
      const { cluster } = newCluster();
      const obj = await cluster.create(Widgets, { ...widget(''), metadata: { generateName: 'w-' } });
      return [obj.metadata.name, obj.metadata.uid];
    };
    const [first, second] = [await run(), await run()];
    expect(first).toEqual(second);
    expect(first[0]).toMatch(/^w-[a-z0-9]{5}$/);
  });

  it('answers AlreadyExists for a taken name and NotFound for a missing one', async () => {
    const { cluster } = newCluster();
    await cluster.create(Widgets, widget('a'));
    const dup = await failure(cluster.create(Widgets, widget('a')));
    expect(isAlreadyExists(dup)).toBe(true);
    expect(dup.code).toBe(409);
    expect(dup.message).toBe('widgets.example.com "a" already exists');
    const missing = await failure(cluster.get(Widgets, { name: 'nope' }));
    expect(isNotFound(missing)).toBe(true);
    expect(missing.message).toBe('widgets.example.com "nope" not found');
  });

  it('rejects invalid names, missing names and a preset resourceVersion', async () => {
    const { cluster } = newCluster();
    expect(isInvalid(await failure(cluster.create(Pods, podObject('Bad_Name'))))).toBe(true);
    expect(isInvalid(await failure(cluster.create(Widgets, { ...widget(''), metadata: {} })))).toBe(true);
    const withRv = widget('a');
    withRv.metadata.resourceVersion = '5';
    const preset = await failure(cluster.create(Widgets, withRv));
    expect(preset.code).toBe(500);
    expect(preset.reason).toBe('Unknown');
    expect(preset.message).toBe('resourceVersion should not be set on objects to be created');
  });

  it('returns frozen objects: mutating a result throws and does not touch the store', async () => {
    const { cluster } = newCluster();
    const input = widget('a', { size: 1 });
    const created = await cluster.create(Widgets, input);
    expect(() => {
      (created.spec as { size: number }).size = 99;
    }).toThrow(TypeError);
    const read = await cluster.get(Widgets, { name: 'a' });
    expect(() => {
      read.metadata.labels = { changed: 'yes' };
    }).toThrow(TypeError);
    const [listed] = (await cluster.list(Widgets)).items;
    expect(() => (listed?.metadata.managedFields ?? []).pop()).toThrow(TypeError);
    expect((await cluster.get(Widgets, { name: 'a' })).spec?.size).toBe(1);
    // The caller's own input stays its own: the cluster stored a copy of it.
    (input.spec as { size: number }).size = 5;
    expect((await cluster.get(Widgets, { name: 'a' })).spec?.size).toBe(1);
  });

  it('builds a changed version from a copy: the version read before stays as it was', async () => {
    const { cluster } = newCluster();
    const before = await cluster.create(Widgets, widget('a', { size: 1 }));
    await cluster.patch(Widgets, { name: 'a' }, { metadata: { labels: { x: 'y' } } });
    await cluster.patchStatus(Widgets, { name: 'a' }, { status: { ready: true } });
    const after = await cluster.get(Widgets, { name: 'a' });
    expect(after.metadata.labels).toEqual({ x: 'y' });
    expect(before.metadata.labels).toBeUndefined();
    expect(before.metadata.resourceVersion).not.toBe(after.metadata.resourceVersion);
    expect(Object.isFrozen(after.metadata)).toBe(true);
  });

  it('answers 404 for kinds it does not serve until they are registered', async () => {
    const { cluster } = newCluster();
    const Unknown = resourceType({ apiVersion: 'other.io/v1', kind: 'Thing', namespaced: false });
    const err = await failure(cluster.list(Unknown));
    expect(isNotFound(err)).toBe(true);
    cluster.registerKind(Unknown);
    expect((await cluster.list(Unknown)).items).toEqual([]);
  });
});

describe('namespaces', () => {
  it('defaults namespaced objects to "default" and strips namespaces from cluster-scoped ones', async () => {
    const { cluster } = newCluster();
    const gadget = await cluster.create(Gadgets, {
      apiVersion: 'example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g' },
    });
    expect(gadget.metadata.namespace).toBe('default');
    const w = await cluster.create(Widgets, {
      ...widget('w'),
      metadata: { name: 'w', namespace: 'ignored' },
    });
    expect(w.metadata.namespace).toBeUndefined();
  });

  it('refuses content in a namespace that does not exist', async () => {
    const { cluster } = newCluster();
    const err = await failure(cluster.create(Pods, podObject('p', { namespace: 'missing' })));
    expect(isNotFound(err)).toBe(true);
    expect(err.message).toBe('namespaces "missing" not found');
  });

  it('starts with the standard namespaces and protects them', async () => {
    const { cluster } = newCluster();
    const names = (await cluster.list(Namespaces)).items.map((n) => n.metadata.name);
    expect(names).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    expect(isForbidden(await failure(cluster.delete(Namespaces, { name: 'default' })))).toBe(true);
  });

  it('keeps same-named objects in different namespaces apart', async () => {
    const { cluster } = newCluster();
    await cluster.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    await cluster.create(Pods, podObject('p'));
    await cluster.create(Pods, podObject('p', { namespace: 'team' }));
    expect((await cluster.list(Pods)).items.map((p) => p.metadata.namespace)).toEqual(['default', 'team']);
    expect((await cluster.list(Pods, { namespace: 'team' })).items).toHaveLength(1);
  });
});

describe('update and optimistic concurrency', () => {
  it('fails with Conflict on a stale resourceVersion', async () => {
    const { cluster } = newCluster();
    const v1 = await cluster.create(Widgets, widget('a', { size: 1 }));
    const v2 = await cluster.update(Widgets, { ...v1, spec: { size: 2 } });
    expect(v2.metadata.resourceVersion).not.toBe(v1.metadata.resourceVersion);
    const err = await failure(cluster.update(Widgets, { ...v1, spec: { size: 3 } }));
    expect(isConflict(err)).toBe(true);
    expect(err.message).toContain('the object has been modified');
    expect((await cluster.get(Widgets, { name: 'a' })).spec?.size).toBe(2);
  });

  it('requires a resourceVersion to update custom resources, but not built-in kinds', async () => {
    const { cluster } = newCluster();
    await cluster.create(Widgets, widget('a'));
    const noRv = widget('a', { size: 5 });
    expect(isInvalid(await failure(cluster.update(Widgets, noRv)))).toBe(true);
    await cluster.create(Nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } });
    const node = await cluster.update(Nodes, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'n', labels: { a: 'b' } },
    });
    expect(node.metadata.labels).toEqual({ a: 'b' });
  });

  it('bumps generation on spec changes only', async () => {
    const { cluster } = newCluster();
    const v1 = await cluster.create(Widgets, widget('a', { size: 1 }));
    const labelled = await cluster.update(Widgets, {
      ...v1,
      metadata: { ...v1.metadata, labels: { x: 'y' } },
    });
    expect(labelled.metadata.generation).toBe(1);
    const resized = await cluster.update(Widgets, { ...labelled, spec: { size: 2 } });
    expect(resized.metadata.generation).toBe(2);
    const status = await cluster.updateStatus(Widgets, { ...resized, status: { phase: 'Ready' } });
    expect(status.metadata.generation).toBe(2);
  });

  it('sets generation only on kinds whose strategy tracks it', async () => {
    const { cluster } = newCluster();
    const pod = await cluster.create(Pods, podObject('p'));
    expect(pod.metadata.generation).toBe(1);
    const node = await cluster.create(Nodes, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } });
    expect(node.metadata.generation).toBeUndefined();
    const edited = await cluster.update(Nodes, { ...node, spec: { unschedulable: true } });
    expect(edited.metadata.generation).toBeUndefined();
    expect(edited.metadata.resourceVersion).not.toBe(node.metadata.resourceVersion);
  });

  it('does not write (or bump resourceVersion) when nothing changes', async () => {
    const { cluster } = newCluster();
    const v1 = await cluster.create(Widgets, widget('a', { size: 1 }));
    const same = await cluster.update(Widgets, structuredClone(v1));
    expect(same.metadata.resourceVersion).toBe(v1.metadata.resourceVersion);
  });

  it('keeps server-owned metadata and rejects a different uid', async () => {
    const { cluster } = newCluster();
    const v1 = await cluster.create(Widgets, widget('a'));
    const tampered = structuredClone(v1);
    tampered.metadata.creationTimestamp = '2000-01-01T00:00:00Z';
    tampered.spec = { size: 1 };
    const v2 = await cluster.update(Widgets, tampered);
    expect(v2.metadata.creationTimestamp).toBe(v1.metadata.creationTimestamp);
    const wrongUid = { ...v2, metadata: { ...v2.metadata, uid: 'other' } };
    expect(isConflict(await failure(cluster.update(Widgets, wrongUid)))).toBe(true);
  });

  it('answers NotFound when updating a missing object', async () => {
    const { cluster } = newCluster();
    const err = await failure(
      cluster.update(Widgets, { ...widget('ghost'), metadata: { name: 'ghost', resourceVersion: '1' } }),
    );
    expect(isNotFound(err)).toBe(true);
  });

  it('rejects more than one controller owner reference', async () => {
    const { cluster } = newCluster();
    const ref = (uid: string) => ({
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name: uid,
      uid,
      controller: true,
    });
    const err = await failure(
      cluster.create(Pods, podObject('p', { ownerReferences: [ref('a'), ref('b')] })),
    );
    expect(isInvalid(err)).toBe(true);
    expect(err.message).toContain('Only one reference can have Controller set to true');
  });
});

describe('status subresource', () => {
  it('ignores status on create, update and patch of the main resource', async () => {
    const { cluster } = newCluster();
    const created = await cluster.create(Widgets, widget('a', { size: 1 }, { status: { phase: 'Forged' } }));
    expect(created.status).toBeUndefined();
    const withStatus = await cluster.updateStatus(Widgets, { ...created, status: { phase: 'Ready' } });
    const updated = await cluster.update(Widgets, {
      ...withStatus,
      spec: { size: 2 },
      status: { phase: 'Overwritten' },
    });
    expect(updated.status).toEqual({ phase: 'Ready' });
    expect(updated.spec?.size).toBe(2);
    const patched = await cluster.patch<Widget>(
      Widgets,
      { name: 'a' },
      { status: { phase: 'Nope' }, spec: { size: 3 } },
    );
    expect(patched.status).toEqual({ phase: 'Ready' });
    expect(patched.spec?.size).toBe(3);
  });

  it('changes only status through updateStatus and patchStatus', async () => {
    const { cluster } = newCluster();
    const created = await cluster.create(Widgets, widget('a', { size: 1 }));
    const out = await cluster.updateStatus(Widgets, {
      ...created,
      metadata: { ...created.metadata, labels: { sneaky: 'yes' } },
      spec: { size: 100 },
      status: { phase: 'Ready' },
    });
    expect(out.spec?.size).toBe(1);
    expect(out.metadata.labels).toBeUndefined();
    expect(out.status).toEqual({ phase: 'Ready' });
    const patched = await cluster.patchStatus<Widget>(
      Widgets,
      { name: 'a' },
      { status: { ready: true }, spec: { size: 7 } },
    );
    expect(patched.status).toEqual({ phase: 'Ready', ready: true });
    expect(patched.spec?.size).toBe(1);
  });

  it('applies optimistic concurrency to status writes too', async () => {
    const { cluster } = newCluster();
    const created = await cluster.create(Widgets, widget('a'));
    await cluster.updateStatus(Widgets, { ...created, status: { phase: 'One' } });
    const err = await failure(cluster.updateStatus(Widgets, { ...created, status: { phase: 'Two' } }));
    expect(isConflict(err)).toBe(true);
  });

  it('resets pod status on create, as the pod strategy does', async () => {
    const { cluster } = newCluster();
    const pod = await cluster.create(Pods, { ...podObject('p'), status: { phase: 'Running' } } as KubeObject);
    expect((pod as { status?: unknown }).status).toEqual({ phase: 'Pending' });
  });

  it('treats status as an ordinary field for kinds without the subresource', async () => {
    const { cluster } = newCluster();
    const g = await cluster.create(Gadgets, {
      apiVersion: 'example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'g' },
      status: { seen: true },
    });
    expect(g.status).toEqual({ seen: true });
    const err = await failure(cluster.updateStatus(Gadgets, g));
    expect(isNotFound(err)).toBe(true);
  });
});

describe('merge patch', () => {
  it('merges maps, deletes with null and replaces lists', async () => {
    const { cluster } = newCluster();
    await cluster.create(
      Widgets,
      widget(
        'a',
        { size: 1, color: 'red', tags: ['x', 'y'] },
        { metadata: { name: 'a', labels: { keep: '1', drop: '2' } } },
      ),
    );
    const out = await cluster.patch<Widget>(
      Widgets,
      { name: 'a' },
      { metadata: { labels: { drop: null, add: '3' } }, spec: { color: null, tags: ['z'] } },
    );
    expect(out.metadata.labels).toEqual({ keep: '1', add: '3' });
    expect(out.spec).toEqual({ size: 1, tags: ['z'] });
  });

  it('honours a resourceVersion precondition, in the options or in the patch', async () => {
    const { cluster } = newCluster();
    const v1 = await cluster.create(Widgets, widget('a', { size: 1 }));
    await cluster.patch(Widgets, { name: 'a' }, { spec: { size: 2 } });
    const stale = v1.metadata.resourceVersion as string;
    expect(
      isConflict(
        await failure(
          cluster.patch(Widgets, { name: 'a' }, { spec: { size: 3 } }, { resourceVersion: stale }),
        ),
      ),
    ).toBe(true);
    expect(
      isConflict(
        await failure(
          cluster.patch(Widgets, { name: 'a' }, { metadata: { resourceVersion: stale }, spec: { size: 3 } }),
        ),
      ),
    ).toBe(true);
    const current = await cluster.get(Widgets, { name: 'a' });
    const ok = await cluster.patch<Widget>(
      Widgets,
      { name: 'a' },
      { spec: { size: 4 } },
      {
        resourceVersion: current.metadata.resourceVersion as string,
      },
    );
    expect(ok.spec?.size).toBe(4);
  });

  it('refuses to rename through a patch and 404s on a missing object', async () => {
    const { cluster } = newCluster();
    await cluster.create(Widgets, widget('a'));
    expect(
      isBadRequest(await failure(cluster.patch(Widgets, { name: 'a' }, { metadata: { name: 'b' } }))),
    ).toBe(true);
    expect(isNotFound(await failure(cluster.patch(Widgets, { name: 'zz' }, { spec: {} })))).toBe(true);
  });
});

describe('list selectors', () => {
  async function seeded() {
    const { cluster } = newCluster();
    await cluster.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
    await cluster.create(
      Pods,
      podObject('web-1', { labels: { app: 'web', tier: 'front' }, nodeName: 'node-1' }),
    );
    await cluster.create(
      Pods,
      podObject('web-2', { labels: { app: 'web', tier: 'back' }, nodeName: 'node-2' }),
    );
    await cluster.create(Pods, podObject('pending', { labels: { app: 'batch' }, nodeName: '' }));
    await cluster.create(
      Pods,
      podObject('other', { namespace: 'team', labels: { app: 'web' }, nodeName: 'node-1' }),
    );
    return cluster;
  }
  const names = (items: KubeObject[]) => items.map((i) => i.metadata.name);

  it('filters by label selector in string and structured form', async () => {
    const cluster = await seeded();
    expect(names((await cluster.list(Pods, { labelSelector: 'app=web,tier!=back' })).items)).toEqual([
      'web-1',
      'other',
    ]);
    expect(
      names(
        (
          await cluster.list(Pods, {
            namespace: 'default',
            labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
          })
        ).items,
      ),
    ).toEqual(['web-1', 'web-2']);
  });

  it('filters by field selector on name, namespace and spec.nodeName', async () => {
    const cluster = await seeded();
    expect(names((await cluster.list(Pods, { fieldSelector: 'spec.nodeName=node-1' })).items)).toEqual([
      'web-1',
      'other',
    ]);
    expect(names((await cluster.list(Pods, { fieldSelector: 'spec.nodeName=' })).items)).toEqual(['pending']);
    expect(names((await cluster.list(Pods, { fieldSelector: 'metadata.namespace!=default' })).items)).toEqual(
      ['other'],
    );
    expect(names((await cluster.list(Pods, { fieldSelector: 'metadata.name=web-2' })).items)).toEqual([
      'web-2',
    ]);
    expect(
      names((await cluster.list(Pods, { fieldSelector: 'status.phase=Pending,spec.nodeName=node-2' })).items),
    ).toEqual(['web-2']);
  });

  it('lists the pods of a node from its index as they are bound, moved and deleted', async () => {
    const { cluster } = newCluster();
    await cluster.create(Pods, podObject('a', { nodeName: '' }));
    await cluster.create(Pods, podObject('b', { nodeName: 'node-1' }));
    const onNode = async (node: string) =>
      names((await cluster.list(Pods, { fieldSelector: `spec.nodeName=${node}` })).items);
    expect(await onNode('node-1')).toEqual(['b']);
    expect(await onNode('')).toEqual(['a']);
    await cluster.patch(Pods, { name: 'a', namespace: 'default' }, { spec: { nodeName: 'node-1' } });
    expect(await onNode('node-1')).toEqual(['a', 'b']);
    expect(await onNode('')).toEqual([]);
    await cluster.delete(Pods, { name: 'b', namespace: 'default' }, { gracePeriodSeconds: 0 });
    expect(await onNode('node-1')).toEqual(['a']);
    // The index narrows; every other term still filters.
    expect(
      names((await cluster.list(Pods, { fieldSelector: 'spec.nodeName=node-1,metadata.name!=a' })).items),
    ).toEqual([]);
    expect(names([...cluster.peek(Pods, { fieldSelector: 'spec.nodeName!=node-2' })])).toEqual(['a']);
  });

  it('rejects unsupported fields and unparsable selectors with BadRequest', async () => {
    const cluster = await seeded();
    expect(isBadRequest(await failure(cluster.list(Pods, { fieldSelector: 'spec.containers=x' })))).toBe(
      true,
    );
    expect(isBadRequest(await failure(cluster.list(Widgets, { fieldSelector: 'spec.size=1' })))).toBe(true);
    expect(isBadRequest(await failure(cluster.list(Pods, { labelSelector: 'app in web' })))).toBe(true);
  });

  it('reports the resourceVersion the list is consistent at', async () => {
    const cluster = await seeded();
    const list = await cluster.list(Pods);
    expect(list.resourceVersion).toBe(cluster.resourceVersion);
  });
});
