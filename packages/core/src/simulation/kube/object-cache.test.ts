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
