import { describe, expect, it } from 'vitest';
import { ClaimOrder } from './claim-order.js';
import { PodQueue } from './queue.js';

describe('PodQueue', () => {
  it('stops after a full cycle without progress', () => {
    const q = new PodQueue([1, 2, 3]);
    const seen: number[] = [];
    for (let p = q.pop(); p !== undefined; p = q.pop()) {
      seen.push(p);
      if (p !== 2) q.push(p, false);
    }
    // 2 succeeds; 3 and 1 are retried after it; 3 coming round again with nothing placed ends it.
    expect(seen).toEqual([1, 2, 3, 1]);
    expect(q.remaining()).toEqual([3, 1]);
  });

  it('treats a relaxation as progress', () => {
    const q = new PodQueue([1]);
    const seen: number[] = [];
    let relaxations = 2;
    for (let p = q.pop(); p !== undefined; p = q.pop()) {
      seen.push(p);
      q.push(p, relaxations-- > 0);
    }
    expect(seen).toEqual([1, 1, 1]);
  });
});

describe('ClaimOrder', () => {
  it('orders claims by pod count, then creation', () => {
    const o = new ClaimOrder();
    o.add(0, 1);
    o.add(1, 1);
    o.add(2, 1);
    o.increment(0, 1);
    o.increment(2, 1);
    o.increment(2, 2);
    const order = o.counts().flatMap((c) => o.bucket(c));
    expect(order).toEqual([1, 0, 2]);
    expect(o.counts()).toEqual([1, 2, 3]);
  });
});
