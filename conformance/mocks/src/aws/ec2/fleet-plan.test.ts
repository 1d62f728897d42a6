import { describe, expect, it } from 'vitest';
import { type FleetCandidate, planFleet } from './fleet-plan.js';

const ice = { code: 'InsufficientInstanceCapacity', message: 'no capacity' };
function candidate(order: number, instanceType: string, price: number, priority?: number): FleetCandidate {
  return {
    order,
    instanceType,
    zone: 'z',
    subnetId: 's',
    priority,
    price,
    limits: [{ key: instanceType, failure: ice }],
  };
}

describe('planFleet', () => {
  const cheap = candidate(0, 'cheap', 0.05, 3);
  const mid = candidate(1, 'mid', 0.08, 1);
  const dear = candidate(2, 'dear', 0.1, 2);

  it('fills from the cheapest pool for price strategies and the first priority for prioritized', () => {
    const none = new Map<string, number>();
    const byPrice = planFleet([dear, mid, cheap], 'price-capacity-optimized', 3, none);
    expect(byPrice.launches.map((l) => [l.candidate.instanceType, l.count])).toEqual([['cheap', 3]]);
    const byPriority = planFleet([dear, mid, cheap], 'prioritized', 1, none);
    expect(byPriority.launches.map((l) => l.candidate.instanceType)).toEqual(['mid']);
  });

  it('moves to the next pool when one runs out and reports the pool it skipped', () => {
    const plan = planFleet([cheap, mid, dear], 'lowest-price', 3, new Map([['cheap', 1]]));
    expect(plan.launches.map((l) => [l.candidate.instanceType, l.count])).toEqual([
      ['cheap', 1],
      ['mid', 2],
    ]);
    expect(plan.errors.map((e) => [e.candidate.instanceType, e.failure.code])).toEqual([
      ['cheap', 'InsufficientInstanceCapacity'],
    ]);
  });

  it('reports every failed pool when the fleet falls short', () => {
    const unsupported = { ...dear, failure: { code: 'Unsupported', message: 'not here' } };
    const plan = planFleet(
      [cheap, mid, unsupported],
      'lowest-price',
      2,
      new Map([
        ['cheap', 0],
        ['mid', 1],
      ]),
    );
    expect(plan.launches.map((l) => [l.candidate.instanceType, l.count])).toEqual([['mid', 1]]);
    expect(plan.errors.map((e) => [e.candidate.instanceType, e.failure.code]).sort()).toEqual([
      ['cheap', 'InsufficientInstanceCapacity'],
      ['dear', 'Unsupported'],
      ['mid', 'InsufficientInstanceCapacity'],
    ]);
  });
});
