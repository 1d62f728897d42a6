import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kube/object.js';
import { ObjectCache } from './object-cache.js';

function obj(name: string, rv: number, owner?: string): KubeObject {
  return {
    metadata: {
      name,
      namespace: 'default',
      resourceVersion: String(rv),
      ...(owner
        ? { ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: owner, uid: owner, controller: true }] }
        : {}),
    },
  };
}

describe('ObjectCache', () => {
  it('ignores events older than what it holds, and never resurrects a deleted object', () => {
    const cache = new ObjectCache<KubeObject>();
    expect(cache.observe(obj('a', 5)).changed).toBe(true);
    expect(cache.apply({ type: 'MODIFIED', object: obj('a', 4) }).changed).toBe(false);
    expect(cache.get('default/a')?.metadata.resourceVersion).toBe('5');
    expect(cache.apply({ type: 'DELETED', object: obj('a', 7) })).toMatchObject({
      changed: true,
      current: undefined,
    });
    expect(cache.apply({ type: 'MODIFIED', object: obj('a', 6) }).changed).toBe(false);
    expect(cache.get('default/a')).toBeUndefined();
    expect(cache.apply({ type: 'ADDED', object: obj('a', 8) }).changed).toBe(true);
  });

  it('lists in key order and looks objects up by index', () => {
    const cache = new ObjectCache<KubeObject>({ index: (o) => o.metadata.ownerReferences?.[0]?.uid });
    cache.observe(obj('b', 1, 'rs1'));
    cache.observe(obj('a', 2, 'rs1'));
    cache.observe(obj('c', 3, 'rs2'));
    expect(cache.list().map((o) => o.metadata.name)).toEqual(['a', 'b', 'c']);
    expect(cache.byIndex('rs1').map((o) => o.metadata.name)).toEqual(['a', 'b']);
    cache.observe(obj('a', 4, 'rs2'));
    cache.remove(obj('c', 5));
    expect(cache.byIndex('rs1').map((o) => o.metadata.name)).toEqual(['b']);
    expect(cache.byIndex('rs2').map((o) => o.metadata.name)).toEqual(['a']);
  });
});

describe('ObjectCache counts', () => {
  const labelled = (name: string, rv: number, owner: string, ready: boolean): KubeObject => {
    const o = obj(name, rv, owner);
    return { ...o, metadata: { ...o.metadata, labels: { ready: String(ready) } } };
  };
  const isReady = (o: KubeObject) => o.metadata.labels?.ready === 'true';

  it('keeps per index value how many objects each predicate accepts, through moves and removals', () => {
    const cache = new ObjectCache<KubeObject>({
      index: (o) => o.metadata.ownerReferences?.[0]?.uid,
      counts: { all: () => true, ready: isReady },
    });
    cache.observe(labelled('a', 1, 'rs1', false));
    cache.observe(labelled('b', 2, 'rs1', true));
    expect([cache.countByIndex('rs1', 'all'), cache.countByIndex('rs1', 'ready')]).toEqual([2, 1]);
    cache.observe(labelled('a', 3, 'rs1', true));
    expect(cache.countByIndex('rs1', 'ready')).toBe(2);
    cache.apply({ type: 'MODIFIED', object: labelled('a', 2, 'rs1', false) }); // stale: ignored
    expect(cache.countByIndex('rs1', 'ready')).toBe(2);
    cache.observe(labelled('b', 4, 'rs2', true));
    expect([cache.countByIndex('rs1', 'all'), cache.countByIndex('rs2', 'ready')]).toEqual([1, 1]);
    cache.remove(labelled('a', 5, 'rs1', true));
    expect([cache.countByIndex('rs1', 'all'), cache.countByIndex('rs1', 'ready')]).toEqual([0, 0]);
    expect(cache.countByIndex('rs2', 'unknown')).toBe(0);
  });

  it('agrees with filtering the indexed objects after random changes', () => {
    const cache = new ObjectCache<KubeObject>({
      index: (o) => o.metadata.ownerReferences?.[0]?.uid,
      counts: { ready: isReady },
    });
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let rv = 1; rv <= 500; rv++) {
      const name = `p${next(20)}`;
      const owner = `rs${next(3)}`;
      if (next(5) === 0) cache.remove(labelled(name, rv, owner, false));
      else cache.observe(labelled(name, rv, owner, next(2) === 0));
      for (const o of ['rs0', 'rs1', 'rs2']) {
        expect(cache.countByIndex(o, 'ready')).toBe(cache.byIndex(o).filter(isReady).length);
      }
    }
  });
});
