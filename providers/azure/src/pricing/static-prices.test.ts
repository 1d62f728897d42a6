import { describe, expect, it } from 'vitest';
import { SKU_FACTS, STATIC_REGIONS } from '../catalog/sku-facts.js';
import { parseSkuName } from '../instancetype/sku-name.js';
import { STATIC_PRICES } from './static-prices.js';

describe('the shipped price table', () => {
  it.each(STATIC_REGIONS)(
    'prices every shipped size in %s, spot exactly where the size can run Spot',
    (region) => {
      const table = STATIC_PRICES[region]!;
      for (const fact of SKU_FACTS) {
        const price = table[fact.name];
        expect(price, fact.name).toBeDefined();
        expect(price!.onDemand, fact.name).toBeGreaterThan(0);
        if (fact.lowPriorityCapable) {
          expect(price!.spot, fact.name).toBeGreaterThan(0);
          expect(price!.spot!, fact.name).toBeLessThan(price!.onDemand);
        } else {
          expect(price!.spot, fact.name).toBeUndefined();
        }
      }
      expect(Object.keys(table).sort()).toEqual(SKU_FACTS.map((f) => f.name).sort());
    },
  );

  it('covers the D, E, F, B, L and N series, v5 and v6, AMD and Arm', () => {
    const parts = SKU_FACTS.map((f) => ({ fact: f, name: parseSkuName(f.name)! }));
    expect(new Set(parts.map((p) => p.name.family))).toEqual(new Set(['D', 'E', 'F', 'B', 'L', 'NC']));
    expect(parts.map((p) => p.name.version)).toEqual(expect.arrayContaining(['5', '6']));
    // AMD sizes carry an `a` feature letter; Arm (Ampere) sizes a `p` one.
    expect(parts.filter((p) => /^[A-Z]+a/.test(p.name.series)).map((p) => p.name.family)).toEqual(
      expect.arrayContaining(['D', 'E', 'NC']),
    );
    expect(parts.filter((p) => p.fact.architecture === 'Arm64').map((p) => p.name.series)).toContain(
      'Dps_v5',
    );
  });

  it('prices a CPU series in proportion to its vCPUs (a mistyped figure stands out)', () => {
    for (const table of Object.values(STATIC_PRICES)) {
      const perCpu = new Map<string, number>();
      for (const fact of SKU_FACTS.filter((f) => f.gpus === undefined)) {
        const series = parseSkuName(fact.name)!.series;
        const rate = table[fact.name]!.onDemand / fact.vCPUs;
        const first = perCpu.get(series) ?? rate;
        perCpu.set(series, first);
        expect(Math.abs(rate - first) / first, fact.name).toBeLessThan(0.02);
      }
    }
  });
});
