import { describe, expect, it } from 'vitest';
import { describeShortfall, explainMisfit, fits, shortfalls } from './fits.js';
import { addResources, parseResourceList } from './resource-list.js';

const rl = (o: Record<string, string | number>) => parseResourceList(o);

describe('fits', () => {
  const node = rl({ cpu: '4', memory: '16Gi', pods: 110 });

  it('accepts requests within every available quantity', () => {
    expect(fits(rl({ cpu: '3500m', memory: '16Gi', pods: 1 }), node)).toBe(true);
    expect(fits(rl({}), node)).toBe(true);
    expect(fits(rl({}), rl({}))).toBe(true);
  });

  it('rejects a request above what is available', () => {
    expect(fits(rl({ cpu: '4001m' }), node)).toBe(false);
    expect(fits(rl({ memory: '16385Mi' }), node)).toBe(false);
  });

  it('reads a missing available name as zero, so only zero requests for it fit', () => {
    expect(fits(rl({ 'nvidia.com/gpu': 1 }), node)).toBe(false);
    expect(fits(rl({ 'nvidia.com/gpu': 0 }), node)).toBe(true);
    expect(fits(rl({ 'nvidia.com/gpu': '0m' }), node)).toBe(true);
  });

  it('fits nothing when anything available is negative, as Karpenter does', () => {
    const overcommitted = rl({ cpu: '4', memory: '-1Mi' });
    expect(fits(rl({ cpu: '1' }), overcommitted)).toBe(false);
    expect(fits(rl({}), overcommitted)).toBe(false);
  });

  it('compares exactly where floats would not', () => {
    // In doubles 0.1 + 0.2 > 0.3.
    expect(fits(rl({ cpu: '0.3' }), addResources(rl({ cpu: '0.1' }), rl({ cpu: '0.2' })))).toBe(true);
    expect(fits(rl({ cpu: '300000001n' }), rl({ cpu: '300m' }))).toBe(false);
  });
});

describe('shortfalls', () => {
  it('reports each resource that does not fit and by how much', () => {
    const found = shortfalls(
      rl({ cpu: '2', memory: '1Gi', 'nvidia.com/gpu': 1 }),
      rl({ cpu: '1500m', memory: '2Gi' }),
    );
    expect(found.map(describeShortfall)).toEqual([
      'cpu: requested 2, available 1500m (short by 500m)',
      'nvidia.com/gpu: requested 1, available 0 (short by 1)',
    ]);
  });

  it('reports overcommitted resources first', () => {
    const found = shortfalls(rl({ cpu: '1', memory: '1Gi' }), rl({ cpu: '-500m', memory: '512Mi' }));
    expect(found.map(describeShortfall)).toEqual([
      'cpu: available -500m is negative (overcommitted)',
      'memory: requested 1Gi, available 512Mi (short by 512Mi)',
    ]);
  });

  it('is empty exactly when the requests fit', () => {
    const cases = [
      [{ cpu: '1' }, { cpu: '1' }],
      [{ cpu: '1' }, { cpu: '999m' }],
      [{ pods: 1 }, {}],
      [{}, { cpu: '-1' }],
    ] as const;
    for (const [req, avail] of cases) {
      expect(shortfalls(rl(req), rl(avail)).length === 0).toBe(fits(rl(req), rl(avail)));
    }
    expect(explainMisfit(rl({ cpu: '1' }), rl({ cpu: '1' }))).toBeUndefined();
    expect(explainMisfit(rl({ cpu: '2', pods: 1 }), rl({ cpu: '1' }))).toBe(
      'cpu: requested 2, available 1 (short by 1); pods: requested 1, available 0 (short by 1)',
    );
  });
});
