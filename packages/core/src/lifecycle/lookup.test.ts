import { describe, expect, it } from 'vitest';
import type { Node } from '../apis/kubernetes/node.js';
import type { KubeObject } from '../kube/object.js';
import { typeKey } from '../kube/resource-type.js';
import { Nodes, Pods } from '../kube/resource-types.js';
import { StoreCache, TypeStore } from '../operator/runtime/controller-cache.js';
import { listCachedOr } from './lookup.js';

const node = (name: string, providerID: string): Node => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name },
  spec: { providerID },
});

function cacheOf(nodes: Node[]): StoreCache {
  const store = new TypeStore();
  for (const n of nodes) store.objects.set(n.metadata.name ?? '', n as KubeObject);
  return new StoreCache(new Map([[typeKey(Nodes), store]]));
}

describe('listCachedOr', () => {
  const apiserver = [node('a', 'kwok://a'), node('b', 'kwok://b')];
  const counting = () => {
    let lists = 0;
    return {
      lists: () => lists,
      cluster: {
        list: async () => {
          lists++;
          return { items: apiserver, metadata: {} };
        },
      } as never,
    };
  };

  it('reads a watched kind from the cache, with no request', async () => {
    const { cluster, lists } = counting();
    const cache = cacheOf([node('a', 'kwok://a'), node('c', 'kwok://c')]);
    expect(cache.has(Nodes)).toBe(true);
    const found = await listCachedOr(cluster, cache, Nodes, (n) => n.spec.providerID !== 'kwok://a');
    expect(found.map((n) => n.metadata.name)).toEqual(['c']);
    expect(lists()).toBe(0);
  });

  it('lists an unwatched kind from the API server, filtered', async () => {
    const { cluster, lists } = counting();
    // A cache of Pods only: Nodes are not watched.
    const cache = new StoreCache(new Map([[typeKey(Pods), new TypeStore()]]));
    expect(cache.has(Nodes)).toBe(false);
    const found = await listCachedOr(cluster, cache, Nodes, (n) => n.spec.providerID === 'kwok://b');
    expect(found.map((n) => n.metadata.name)).toEqual(['b']);
    expect(lists()).toBe(1);
    expect(await listCachedOr(cluster, undefined, Nodes, () => true)).toHaveLength(2);
    expect(lists()).toBe(2);
  });
});
