import { describe, expect, it } from 'vitest';
import { finishNow } from './slices.js';
import { sortSteps } from './sort-steps.js';

describe('sortSteps', () => {
  it('orders as Array.prototype.sort does, ties in their input order, stopping when due', () => {
    // Keys with many ties; the index tells tied items apart.
    let seed = 7;
    const items = Array.from({ length: 1_001 }, (_, index) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return { key: seed % 17, index };
    });
    const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;
    let asked = 0;
    let stops = 0;
    const steps = sortSteps(items, byKey, () => ++asked % 10 === 0);
    let step = steps.next();
    while (step.done !== true) {
      stops++;
      step = steps.next();
    }
    expect(step.value).toEqual([...items].sort(byKey));
    expect(stops).toBeGreaterThan(50);
    expect(finishNow(sortSteps([], byKey, () => true))).toEqual([]);
    expect(finishNow(sortSteps([items[0]!], byKey, () => true))).toEqual([items[0]]);
  });
});
