import { describe, expect, it } from 'vitest';
import { parseResourceList } from '../resources/resource-list.js';
import { instanceType } from '../solver/testing/index.js';
import { lowerBoundPerHour } from './lower-bound.js';
import { LowerBoundCache } from './lower-bound-cache.js';

const requests = (cpu: string, memory: string) => parseResourceList({ cpu, memory });

describe('LowerBoundCache', () => {
  const types = [
    instanceType('c', { cpu: '4', memory: '8Gi', price: 0.2 }),
    instanceType('r', { cpu: '2', memory: '16Gi', price: 0.25 }),
  ];

  it('answers what lowerBoundPerHour answers, for every mix of requests', () => {
    const cache = new LowerBoundCache();
    for (const pods of [
      [requests('1', '1Gi')],
      [requests('1', '1Gi'), requests('500m', '6Gi')],
      [requests('3', '30Gi')],
      [],
    ]) {
      expect(cache.perHour(pods, types)).toBe(lowerBoundPerHour(pods, types));
    }
  });

  it('keeps one answer per total requested and per type list', () => {
    const cache = new LowerBoundCache();
    const split = cache.perHour([requests('1', '2Gi'), requests('1', '2Gi')], types);
    // The same totals from other pods: the same answer, as the bound depends on totals only.
    expect(cache.perHour([requests('2', '4Gi')], types)).toBe(split);
    const dearer = types.map((t) => ({
      ...t,
      offerings: t.offerings.map((o) => ({ ...o, price: o.price * 2 })),
    }));
    expect(cache.perHour([requests('2', '4Gi')], dearer)).toBeCloseTo(split * 2, 9);
  });
});
