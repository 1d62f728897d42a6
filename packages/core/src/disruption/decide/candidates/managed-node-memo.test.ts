import { describe, expect, it } from 'vitest';
import { standardTypes } from '../../../scheduling/solver/testing/builders.js';
import { boundPod, cluster, managedNode } from '../../../testing/disruption-builders.js';
import { ManagedNodeMemo, managedNodes } from './managed-node.js';
import { NodePriceMemo, nodePrice } from './node-price.js';

describe('ManagedNodeMemo', () => {
  const snapshot = cluster({
    nodes: [
      { node: managedNode('a'), pods: [boundPod('p', 'a', { cpu: '1' })] },
      { node: managedNode('b'), pods: [] },
    ],
  });

  it('gives what managedNodes gives without it, the same objects while the capacity is', () => {
    const memo = new ManagedNodeMemo();
    const first = managedNodes(snapshot.capacity, undefined, memo);
    expect(first).toEqual(managedNodes(snapshot.capacity));
    const again = managedNodes(snapshot.capacity, undefined, memo);
    expect(again[0]).toBe(first[0]);
    expect(again[1]).toBe(first[1]);
    // A new capacity object (cluster state makes one on any change) is judged afresh.
    const changed = [{ ...snapshot.capacity[0]!, pods: [] }, snapshot.capacity[1]!];
    const after = managedNodes(changed, undefined, memo);
    expect(after[0]).not.toBe(first[0]);
    expect(after[0]?.pods).toEqual([]);
    expect(after[1]).toBe(first[1]);
  });

  it('judges a node again when an earlier command marks it or lets it go', () => {
    const memo = new ManagedNodeMemo();
    const [a] = managedNodes(snapshot.capacity, undefined, memo);
    const [marked] = managedNodes(snapshot.capacity, new Set(['a']), memo);
    expect(marked?.deletingBecause).toBe('node is already being disrupted by an earlier command');
    const [unmarked] = managedNodes(snapshot.capacity, new Set(['b']), memo);
    expect(unmarked?.deleting).toBe(false);
    expect(unmarked).toEqual(a);
  });
});

describe('NodePriceMemo', () => {
  it('keeps a price while the NodePool lists the same types, and asks again for a new list', () => {
    const snapshot = cluster({ nodes: [{ node: managedNode('a'), pods: [] }] });
    const [node] = managedNodes(snapshot.capacity);
    const memo = new NodePriceMemo();
    const first = memo.price(node!, snapshot.instanceTypes);
    expect(first).toEqual(nodePrice(node!, snapshot.instanceTypes));
    expect(memo.price(node!, snapshot.instanceTypes)).toBe(first);
    // Offerings changed: the provider hands out a new list, here with medium at a new price.
    const repriced = standardTypes().map((t) =>
      t.name === 'medium' ? { ...t, offerings: t.offerings.map((o) => ({ ...o, price: o.price * 2 })) } : t,
    );
    const second = memo.price(node!, new Map([['default', repriced]]));
    expect(second.known && first.known && second.price).toBe(first.known && first.price * 2);
  });

  it('does not keep a price found only in another NodePool’s types', () => {
    const snapshot = cluster({ nodes: [{ node: managedNode('a', { pool: 'gone' }), pods: [] }] });
    const [node] = managedNodes(snapshot.capacity);
    const memo = new NodePriceMemo();
    const first = memo.price(node!, snapshot.instanceTypes);
    expect(first.known).toBe(true);
    const cheaper = standardTypes().map((t) => ({
      ...t,
      offerings: t.offerings.map((o) => ({ ...o, price: 0.001 })),
    }));
    const second = memo.price(node!, new Map([['default', cheaper]]));
    expect(second.known && second.price).toBe(0.001);
  });
});
