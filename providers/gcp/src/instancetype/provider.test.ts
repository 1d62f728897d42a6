import { FakeClock, ManualTimers } from '@nodewright/core/clock';
import { UnavailableOfferingsCache } from '@nodewright/core/cloudprovider';
import { describe, expect, it } from 'vitest';
import type { GCENodeClass } from '../apis/index.js';
import { GcePricingProvider } from '../pricing/provider.js';
import type { BillingSku } from '../pricing/skus.js';
import type { BillingCatalogApi } from '../sdk/compute-api.js';
import type { GceMachineTypeRecord } from './machine-types.js';
import { GceInstanceTypeProvider } from './provider.js';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const zone = (z: string) => `projects/p/zones/${z}`;
const records: GceMachineTypeRecord[] = [
  { name: 'n2-standard-8', zone: zone('us-central1-a'), guestCpus: 8, memoryMb: 32768 },
  { name: 'n2-standard-8', zone: zone('us-central1-b'), guestCpus: 8, memoryMb: 32768 },
  { name: 'z9-standard-8', zone: zone('us-central1-a'), guestCpus: 8, memoryMb: 32768 },
];
const usd = (v: number) => ({ units: '0', nanos: Math.round(v * 1e9) });
const sku = (description: string, usageType: string, price: number): BillingSku => ({
  description,
  category: { resourceFamily: 'Compute', usageType },
  serviceRegions: ['us-central1'],
  pricingInfo: [{ pricingExpression: { tieredRates: [{ unitPrice: usd(price) }] } }],
});

function world(billingPages: BillingSku[][] | 'fail') {
  const clock = new FakeClock(0);
  const timers = new ManualTimers(clock);
  const listed: (string | undefined)[] = [];
  const billing: BillingCatalogApi = {
    async listSkus(_service, token) {
      listed.push(token);
      if (billingPages === 'fail') throw new Error('billing down');
      const i = token === undefined ? 0 : Number(token);
      return {
        skus: billingPages[i] ?? [],
        ...(i + 1 < billingPages.length ? { nextPageToken: String(i + 1) } : {}),
      };
    },
  };
  const prices = new GcePricingProvider({ billing, region: 'us-central1', timers, logger: silent });
  const cache = new UnavailableOfferingsCache(clock);
  const provider = new GceInstanceTypeProvider({
    compute: {
      async *aggregatedMachineTypes() {
        yield* records;
      },
    },
    prices,
    region: 'us-central1',
    timers,
    logger: silent,
    unavailableOfferings: cache,
  });
  return { provider, prices, cache, listed };
}

const nodeClass = { spec: { imageSelectorTerms: [{ alias: 'cos@latest' }] } } as Pick<GCENodeClass, 'spec'>;

describe('GceInstanceTypeProvider', () => {
  it('prices from every page of the billing catalog; a type with no price has no launchable offering', async () => {
    const { provider, listed } = world([
      [sku('N2 Instance Core running in Americas', 'OnDemand', 0.05)],
      [sku('N2 Instance Ram running in Americas', 'OnDemand', 0.01)],
    ]);
    const types = await provider.forNodeClass(nodeClass);
    expect(listed).toEqual([undefined, '1']);
    const n2 = types.find((t) => t.name === 'n2-standard-8')!;
    const od = n2.offerings.filter((o) => o.capacityType === 'on-demand');
    expect(od.map((o) => [o.zone, o.price, o.available])).toEqual([
      ['us-central1-a', 0.72, true],
      ['us-central1-b', 0.72, true],
    ]);
    // Spot comes from the static table: the catalog read had no spot SKU for n2.
    expect(n2.offerings.find((o) => o.capacityType === 'spot')?.price).toBeCloseTo(
      8 * 0.007646 + 32 * 0.001025,
      6,
    );
    const unknown = types.find((t) => t.name === 'z9-standard-8')!;
    expect(unknown.offerings.every((o) => !o.available && o.price === Number.POSITIVE_INFINITY)).toBe(true);
  });

  it('falls back to the static table when the catalog cannot be read', async () => {
    const { provider, prices } = world('fail');
    const n2 = (await provider.forNodeClass(nodeClass)).find((t) => t.name === 'n2-standard-8')!;
    expect(prices.live).toBe(false);
    expect(n2.offerings.find((o) => o.capacityType === 'on-demand')?.price).toBeCloseTo(
      8 * 0.031611 + 32 * 0.004237,
      6,
    );
  });

  it('marks offerings the unavailable-offerings cache lists', async () => {
    const { provider, cache } = world('fail');
    cache.markUnavailable(
      { capacityType: 'spot', instanceType: 'n2-standard-8', zone: 'us-central1-b' },
      'stockout',
    );
    const n2 = (await provider.forNodeClass(nodeClass)).find((t) => t.name === 'n2-standard-8')!;
    expect(n2.offerings.filter((o) => !o.available).map((o) => `${o.capacityType}/${o.zone}`)).toEqual([
      'spot/us-central1-b',
    ]);
  });

  it("shapes capacity from the NodeClass's kubelet settings and boot disk", async () => {
    const { provider } = world('fail');
    const shaped = {
      spec: {
        ...nodeClass.spec,
        kubeletConfiguration: { maxPods: 32 },
        disks: [{ category: 'pd-ssd', sizeGiB: 50, boot: true }],
      },
    } as Pick<GCENodeClass, 'spec'>;
    const n2 = (await provider.forNodeClass(shaped)).find((t) => t.name === 'n2-standard-8')!;
    expect(n2.capacity.get('pods')?.toString()).toBe('32');
    expect(n2.capacity.get('ephemeral-storage')?.toString()).toBe('50Gi');
    expect(n2.capacity.get('memory')?.toString()).toBe(`${32768 - Math.ceil(32768 * 0.07)}Mi`);
  });
});
