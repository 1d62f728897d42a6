import { instanceTypeCatalogSchema } from '@nodewright/core/apis';
import { formatResourceList } from '@nodewright/core/scheduling';
import { describe, expect, it } from 'vitest';
import { kwokCatalogProvider } from './catalog-provider.js';
import { generateKwokCatalog, KwokLabels, maxPods, onDemandPrice } from './generate.js';
import { kwokInstanceTypes } from './provider.js';

describe('generateKwokCatalog', () => {
  const catalog = generateKwokCatalog();

  it("has KWOK's 144 types: 12 sizes x c/s/m x linux/windows x amd64/arm64", () => {
    expect(catalog.instanceTypes).toHaveLength(144);
    const names = catalog.instanceTypes.map((t) => t.name);
    expect(new Set(names).size).toBe(144);
    expect(names).toContain('c-1x-amd64-linux');
    expect(names).toContain('s-48x-arm64-windows');
    expect(names).toContain('m-256x-arm64-linux');
  });

  it('is a valid InstanceTypeCatalog that parses to itself', () => {
    const parsed = instanceTypeCatalogSchema.parse(catalog);
    expect(parsed).toEqual(catalog);
  });

  it('prices as KWOK does, spot at 0.7 of on-demand, in all four zones', () => {
    const m4 = catalog.instanceTypes.find((t) => t.name === 'm-4x-amd64-linux')!;
    expect(m4.capacity).toEqual({ cpu: '4', memory: '32Gi', pods: '64', 'ephemeral-storage': '20Gi' });
    const od = m4.offerings.filter((o) => o.capacityType === 'on-demand');
    const spot = m4.offerings.filter((o) => o.capacityType === 'spot');
    expect(od.map((o) => o.zone)).toEqual(['test-zone-a', 'test-zone-b', 'test-zone-c', 'test-zone-d']);
    expect(od[0]!.price).toBeCloseTo(0.1 + 0.032 * 1.073741824, 6);
    expect(spot[0]!.price).toBeCloseTo(od[0]!.price * 0.7, 6);
    expect(m4.labels).toMatchObject({
      [KwokLabels.InstanceFamily]: 'm',
      [KwokLabels.InstanceCpu]: '4',
      [KwokLabels.InstanceMemory]: '32768',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/os': 'linux',
    });
  });

  it('price grows with size, so bigger types never undercut smaller ones of the family', () => {
    expect(onDemandPrice(2, 4)).toBeGreaterThan(onDemandPrice(1, 2));
    expect(maxPods(1)).toBe(16);
    expect(maxPods(256)).toBe(1024);
  });

  it('generations, zones and architecture price factors scale it up for large catalogs', () => {
    const large = generateKwokCatalog({
      name: 'large',
      cpus: [2, 4],
      families: [{ name: 'c', memoryGiPerCpu: 2 }],
      operatingSystems: ['linux'],
      generations: [5, 6],
      zones: ['z1', 'z2', 'z3'],
      architecturePriceFactor: { arm64: 0.8 },
    });
    expect(large.instanceTypes.map((t) => t.name)).toEqual([
      'c5-2x-amd64-linux',
      'c5-2x-arm64-linux',
      'c5-4x-amd64-linux',
      'c5-4x-arm64-linux',
      'c6-2x-amd64-linux',
      'c6-2x-arm64-linux',
      'c6-4x-amd64-linux',
      'c6-4x-arm64-linux',
    ]);
    const price = (name: string) =>
      large.instanceTypes.find((t) => t.name === name)!.offerings.find((o) => o.capacityType === 'on-demand')!
        .price;
    expect(price('c5-2x-arm64-linux') / price('c5-2x-amd64-linux')).toBeCloseTo(0.8, 4);
    expect(price('c6-2x-amd64-linux') / price('c5-2x-amd64-linux')).toBeCloseTo(0.96, 4);
    expect(large.instanceTypes[0]!.labels[KwokLabels.InstanceGeneration]).toBe('5');
    expect(large.instanceTypes[0]!.offerings).toHaveLength(6);
  });
});

describe('kwokInstanceTypes', () => {
  it('converts every type, allocatable below capacity and positive', () => {
    const types = kwokInstanceTypes();
    expect(types).toHaveLength(144);
    const c1 = types.find((t) => t.name === 'c-1x-amd64-linux')!;
    // 1 core: 60m reserved; 16 pods: 255 + 176 = 431Mi reserved, plus the 100Mi eviction threshold.
    expect(formatResourceList(c1.allocatable)).toEqual({
      cpu: '940m',
      memory: '1517Mi',
      pods: '16',
      'ephemeral-storage': '18Gi',
    });
    for (const t of types) {
      for (const [name, q] of t.allocatable) {
        expect(q.sign(), `${t.name} ${name}`).toBe(1);
        expect(q.cmp(t.capacity.get(name)!), `${t.name} ${name}`).toBeLessThanOrEqual(0);
      }
    }
  });

  it('is what the kwok catalog provider ships', async () => {
    expect(kwokCatalogProvider.name).toBe('kwok');
    expect(await kwokCatalogProvider.catalog()).toEqual(generateKwokCatalog());
  });
});
