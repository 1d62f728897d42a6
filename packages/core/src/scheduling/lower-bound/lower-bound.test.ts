import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type InstanceType, newInstanceType } from '../../cloudprovider/instance-type.js';
import { newOffering } from '../../cloudprovider/offering.js';
import { Requirements } from '../requirements/requirements.js';
import { addResources, fits, parseResourceList, type ResourceList } from '../resources/index.js';
import { explainLowerBound, lowerBoundPerHour } from './lower-bound.js';

function type(
  name: string,
  capacity: Record<string, string>,
  prices: number[],
  available = true,
): InstanceType {
  return newInstanceType({
    name,
    requirements: new Requirements(),
    capacity: parseResourceList(capacity),
    offerings: prices.map((price, i) =>
      newOffering({ zone: `z${i}`, capacityType: 'on-demand', price, available }),
    ),
  });
}

const pods = (...requests: Record<string, string>[]) => requests.map((r) => parseResourceList(r));

describe('lowerBoundPerHour', () => {
  it('is exact when the pods fill one node of the only type', () => {
    const types = [type('t', { cpu: '4', memory: '8Gi' }, [1])];
    const bound = lowerBoundPerHour(pods(...Array(4).fill({ cpu: '1', memory: '2Gi' })), types);
    expect(bound).toBeCloseTo(1, 6);
    expect(bound).toBeLessThanOrEqual(1);
  });

  it('is zero without requests and Infinity when no type offers a requested resource', () => {
    const types = [type('t', { cpu: '4', memory: '8Gi' }, [1])];
    expect(lowerBoundPerHour([], types)).toBe(0);
    expect(explainLowerBound(pods({ cpu: '1', 'nvidia.com/gpu': '1' }), types)).toEqual({
      perHour: Number.POSITIVE_INFINITY,
      binding: ['nvidia.com/gpu'],
    });
  });

  it('uses the cheapest available offering and ignores types that cannot be bought', () => {
    const types = [
      type('cheap-but-gone', { cpu: '4', memory: '8Gi' }, [0.1], false),
      type('t', { cpu: '4', memory: '8Gi' }, [2, 1]),
    ];
    expect(lowerBoundPerHour(pods({ cpu: '2' }), types)).toBeCloseTo(0.5, 6);
  });

  it('binds on the scarcer resource: price per unit of it times the total', () => {
    const types = [type('t', { cpu: '4', memory: '8Gi' }, [1])];
    const result = explainLowerBound(pods({ cpu: '1', memory: '6Gi' }, { cpu: '1', memory: '6Gi' }), types);
    expect(result.perHour).toBeCloseTo(1.5, 6);
    expect(result.binding).toEqual(['memory']);
  });

  it('is tighter than either resource alone when no type matches the pods mix', () => {
    // cpu-heavy and memory-heavy types; the pods need both in equal measure, so any mix pays
    // for resources it does not use: the pair bound sees that, the single ones do not.
    const types = [type('c', { cpu: '8', memory: '2Gi' }, [1]), type('m', { cpu: '2', memory: '8Gi' }, [1])];
    const requests = pods(...Array(10).fill({ cpu: '1', memory: '1Gi' }));
    const result = explainLowerBound(requests, types);
    // Alone: 10 cpu at 1/8 = 1.25. Together: x c + y m with 8x + 2y >= 10, 2x + 8y >= 10 -> x = y = 1.
    expect(result.perHour).toBeCloseTo(2, 6);
    expect(result.binding).toEqual(['cpu', 'memory']);
  });

  it('counts every resource the pods request, pods included', () => {
    const types = [type('t', { cpu: '64', memory: '256Gi', pods: '4' }, [1])];
    expect(lowerBoundPerHour(pods(...Array(8).fill({ cpu: '100m', pods: '1' })), types)).toBeCloseTo(2, 6);
  });

  it('never exceeds the cheapest placement, found by trying every grouping of the pods', () => {
    const quantity = (unit: string, max: number) => fc.integer({ min: 1, max }).map((n) => `${n}${unit}`);
    const typeArb = fc.record({
      cpu: quantity('', 8),
      memory: quantity('Gi', 16),
      pods: quantity('', 6),
      price: fc.integer({ min: 1, max: 1000 }).map((n) => n / 100),
    });
    const podArb = fc.record({ cpu: quantity('00m', 40), memory: quantity('Mi', 8192) });
    fc.assert(
      fc.property(
        fc.array(typeArb, { minLength: 1, maxLength: 4 }),
        fc.array(podArb, { minLength: 1, maxLength: 6 }),
        (typeSpecs, podSpecs) => {
          const types = typeSpecs.map((t, i) =>
            type(`t${i}`, { cpu: t.cpu, memory: t.memory, pods: t.pods }, [t.price]),
          );
          const requests = podSpecs.map((p) => parseResourceList({ ...p, pods: '1' }));
          const optimum = cheapestPlacement(requests, types);
          const bound = lowerBoundPerHour(requests, types);
          if (optimum === Number.POSITIVE_INFINITY) return true;
          expect(bound).toBeLessThanOrEqual(optimum);
          expect(bound).toBeGreaterThan(0);
          return true;
        },
      ),
      { numRuns: 300 },
    );
  });
});

/**
 * The exact optimum for tiny inputs: every way to split the pods into groups (one node per
 * group), each group on the cheapest type it fits.
 */
function cheapestPlacement(requests: readonly ResourceList[], types: readonly InstanceType[]): number {
  const price = (t: InstanceType) => Math.min(...t.offerings.map((o) => o.price));
  const nodeCost = (group: readonly ResourceList[]) => {
    const total = addResources(...group);
    let best = Number.POSITIVE_INFINITY;
    for (const t of types) if (fits(total, t.allocatable)) best = Math.min(best, price(t));
    return best;
  };
  let best = Number.POSITIVE_INFINITY;
  const groups: ResourceList[][] = [];
  const place = (i: number) => {
    if (i === requests.length) {
      best = Math.min(
        best,
        groups.reduce((sum, g) => sum + nodeCost(g), 0),
      );
      return;
    }
    for (const g of groups) {
      g.push(requests[i]!);
      place(i + 1);
      g.pop();
    }
    groups.push([requests[i]!]);
    place(i + 1);
    groups.pop();
  };
  place(0);
  return best;
}
