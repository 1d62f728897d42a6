import { Registry } from 'prom-client';
import { describe, expect, it, vi } from 'vitest';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import type { NodePool } from '../apis/v1/nodepool.js';
import { FakeClock } from '../clock/index.js';
import { fakeInstanceType } from '../testing/fake-instance-types.js';
import type { CloudProvider } from './cloud-provider.js';
import { InsufficientCapacityError, NodeClaimNotFoundError } from './errors.js';
import { cloudProviderMetrics, withMetrics } from './metrics-decorator.js';
import { UnavailableOfferingsCache } from './unavailable-offerings.js';

function fakeProvider(calls: string[]): CloudProvider {
  const claim = { metadata: { name: 'nc-1' } } as unknown as NodeClaim;
  return {
    name: 'fake',
    create: async () => {
      calls.push('create');
      throw new InsufficientCapacityError('no spot capacity');
    },
    delete: async () => {
      calls.push('delete');
      throw new NodeClaimNotFoundError('gone');
    },
    get: async () => claim,
    list: async () => [claim],
    getInstanceTypes: async () => [],
    isDrifted: async () => 'AMIDrift',
    wellKnownLabels: () => new Set(['example.com/family']),
    repairPolicies: () => [
      { conditionType: 'Ready', conditionStatus: 'False', tolerationDurationMs: 600_000 },
    ],
    supportedNodeClasses: () => [{ group: 'example.com', kind: 'ExampleNodeClass' }],
  };
}

describe('withMetrics', () => {
  it("keeps the provider's unavailable-offerings cache reachable (core's interruption controller marks spot offerings in it)", () => {
    const cache = new UnavailableOfferingsCache(new FakeClock(0));
    const p = withMetrics(
      Object.assign(fakeProvider([]), { unavailableOfferings: cache }),
      cloudProviderMetrics(new Registry()),
    );
    expect((p as { unavailableOfferings?: unknown }).unavailableOfferings).toBe(cache);
    expect(
      'unavailableOfferings' in withMetrics(fakeProvider([]), cloudProviderMetrics(new Registry())),
    ).toBe(false);
  });

  it('passes results and errors through unchanged', async () => {
    const calls: string[] = [];
    const p = withMetrics(fakeProvider(calls), cloudProviderMetrics(new Registry()));
    await expect(p.create({} as NodeClaim)).rejects.toBeInstanceOf(InsufficientCapacityError);
    await expect(p.delete({} as NodeClaim)).rejects.toBeInstanceOf(NodeClaimNotFoundError);
    expect(await p.isDrifted({} as NodeClaim)).toBe('AMIDrift');
    expect(p.supportedNodeClasses()).toEqual([{ group: 'example.com', kind: 'ExampleNodeClass' }]);
    expect(p.repairPolicies()).toHaveLength(1);
    expect(calls).toEqual(['create', 'delete']);
  });

  it('times each call and counts errors by type under Karpenter metric names', async () => {
    const registry = new Registry();
    let t = 10;
    const p = withMetrics(fakeProvider([]), cloudProviderMetrics(registry), () => {
      t += 0.25;
      return t;
    });
    await p.list();
    await p.create({} as NodeClaim).catch(() => {});
    await p.create({} as NodeClaim).catch(() => {});
    const text = await registry.metrics();
    expect(text).toContain(
      'karpenter_cloudprovider_errors_total{method="create",provider="fake",error="InsufficientCapacityError"} 2',
    );
    expect(text).toContain('karpenter_cloudprovider_duration_seconds_count{method="list",provider="fake"} 1');
    expect(text).toContain(
      'karpenter_cloudprovider_duration_seconds_sum{method="create",provider="fake"} 0.5',
    );
  });

  it("exports the catalog it passes on: each offering's price and availability, each type's cores and memory", async () => {
    const registry = new Registry();
    const type = fakeInstanceType({
      name: 'c-2x',
      cpu: '2',
      memory: '4Gi',
      price: 0.1,
      zones: ['zone-a'],
      capacityTypes: ['on-demand', 'spot'],
    });
    const spotGone = {
      ...type,
      offerings: type.offerings.map((o) => (o.capacityType === 'spot' ? { ...o, available: false } : o)),
    };
    const p = withMetrics(
      { ...fakeProvider([]), getInstanceTypes: async () => [spotGone] },
      cloudProviderMetrics(registry),
    );
    expect(await p.getInstanceTypes({} as NodePool)).toEqual([spotGone]);
    const text = await registry.metrics();
    expect(text).toContain(
      'karpenter_cloudprovider_instance_type_offering_price_estimate{instance_type="c-2x",capacity_type="on-demand",zone="zone-a"} 0.1',
    );
    expect(text).toContain(
      'karpenter_cloudprovider_instance_type_offering_available{instance_type="c-2x",capacity_type="on-demand",zone="zone-a"} 1',
    );
    expect(text).toContain(
      'karpenter_cloudprovider_instance_type_offering_available{instance_type="c-2x",capacity_type="spot",zone="zone-a"} 0',
    );
    expect(text).toContain('karpenter_cloudprovider_instance_type_cpu_cores{instance_type="c-2x"} 2');
    expect(text).toContain(
      'karpenter_cloudprovider_instance_type_memory_bytes{instance_type="c-2x"} 4294967296',
    );
  });

  it('sets the catalog gauges again only when the catalog changed, per NodePool', async () => {
    const metrics = cloudProviderMetrics(new Registry());
    const type = (price: number) =>
      fakeInstanceType({
        name: 'c-2x',
        cpu: '2',
        memory: '4Gi',
        price,
        zones: ['zone-a'],
        capacityTypes: ['spot'],
      });
    let catalog = [type(0.1)];
    const p = withMetrics({ ...fakeProvider([]), getInstanceTypes: async () => catalog }, metrics);
    const pool = (name: string) => ({ metadata: { name } }) as NodePool;
    const price = vi.spyOn(metrics.offeringPrice, 'set');
    const available = vi.spyOn(metrics.offeringAvailable, 'set');
    const cores = vi.spyOn(metrics.cpuCores, 'set');

    await p.getInstanceTypes(pool('a'));
    expect(price).toHaveBeenCalledTimes(1);
    // The same array, then an equal one built anew: nothing to set.
    await p.getInstanceTypes(pool('a'));
    catalog = [type(0.1)];
    await p.getInstanceTypes(pool('a'));
    expect(price).toHaveBeenCalledTimes(1);
    expect(available).toHaveBeenCalledTimes(1);
    expect(cores).toHaveBeenCalledTimes(1);

    catalog = [type(0.25)];
    await p.getInstanceTypes(pool('a'));
    expect(price).toHaveBeenCalledTimes(2);
    expect(price).toHaveBeenLastCalledWith(
      { instance_type: 'c-2x', capacity_type: 'spot', zone: 'zone-a' },
      catalog[0]!.offerings[0]!.price,
    );
    const offering = catalog[0]!.offerings[0]!;
    catalog = [{ ...catalog[0]!, offerings: [{ ...offering, available: false }] }];
    await p.getInstanceTypes(pool('a'));
    expect(available).toHaveBeenLastCalledWith(
      { instance_type: 'c-2x', capacity_type: 'spot', zone: 'zone-a' },
      0,
    );
    // Another pool has not recorded this catalog yet.
    await p.getInstanceTypes(pool('b'));
    expect(price).toHaveBeenCalledTimes(4);
  });
});
