import { GetProductsCommand, PricingClient, paginateGetProducts } from '@aws-sdk/client-pricing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AwsMock, startAwsMock } from './aws-mock.js';

let mock: AwsMock;
let pricing: PricingClient;

beforeEach(async () => {
  mock = await startAwsMock({ cluster: 'c1' });
  pricing = new PricingClient({ ...mock.clientConfig, maxAttempts: 1 });
});

afterEach(async () => {
  pricing.destroy();
  await mock.close();
});

const linux = (region: string) =>
  [
    ['regionCode', region],
    ['operatingSystem', 'Linux'],
    ['tenancy', 'Shared'],
    ['capacitystatus', 'Used'],
    ['preInstalledSw', 'NA'],
  ].map(([Field, Value]) => ({ Type: 'TERM_MATCH' as const, Field, Value }));

function onDemandUsd(entry: string): { type: string; usd: number } {
  const product = JSON.parse(entry);
  const [offer] = Object.values(product.terms.OnDemand) as {
    priceDimensions: Record<string, { pricePerUnit: { USD: string } }>;
  }[];
  const [dimension] = Object.values(offer!.priceDimensions);
  return { type: product.product.attributes.instanceType, usd: Number(dimension!.pricePerUnit.USD) };
}

describe('Pricing mock with the real SDK', () => {
  it('serves one Linux on-demand price per type in the real price-list shape, paginated', async () => {
    const prices = new Map<string, number>();
    let pages = 0;
    for await (const page of paginateGetProducts(
      { client: pricing },
      { ServiceCode: 'AmazonEC2', FormatVersion: 'aws_v1', Filters: linux('us-east-1'), MaxResults: 100 },
    )) {
      pages++;
      expect(page.FormatVersion).toBe('aws_v1');
      for (const entry of page.PriceList ?? []) {
        const { type, usd } = onDemandUsd(String(entry));
        expect(prices.has(type)).toBe(false);
        prices.set(type, usd);
      }
    }
    expect(pages).toBe(Math.ceil(mock.seed.instanceTypes.length / 100));
    expect(prices.size).toBe(mock.seed.instanceTypes.length);
    expect(prices.get('m5.large')).toBe(0.096);
    expect(prices.get('t3.medium')).toBe(0.0416);
    expect(prices.get('m7g.large')).toBe(0.0816);
  });

  it('filters by location and instance type and keeps other variants out', async () => {
    const out = await pricing.send(
      new GetProductsCommand({
        ServiceCode: 'AmazonEC2',
        Filters: [
          { Type: 'TERM_MATCH', Field: 'location', Value: 'US West (Oregon)' },
          { Type: 'TERM_MATCH', Field: 'instanceType', Value: 'c6g.large' },
        ],
      }),
    );
    const entries: Record<string, string>[] = [...(out.PriceList ?? [])].map(
      (e: unknown) => JSON.parse(String(e)).product.attributes,
    );
    expect(entries.map((a) => `${a.operatingSystem}/${a.tenancy}/${a.capacitystatus}`).sort()).toEqual([
      'Linux/Dedicated/Used',
      'Linux/Shared/AllocatedCapacityReservation',
      'Linux/Shared/UnusedCapacityReservation',
      'Linux/Shared/Used',
      'Windows/Shared/Used',
    ]);
    expect(entries.every((a) => a.regionCode === 'us-west-2' && a.usagetype?.startsWith('USW2-'))).toBe(true);
  });

  it('answers errors and throttling as the SDK expects', async () => {
    await expect(pricing.send(new GetProductsCommand({ ServiceCode: 'AmazonS3' }))).rejects.toMatchObject({
      name: 'NotFoundException',
    });
    await expect(
      pricing.send(new GetProductsCommand({ ServiceCode: 'AmazonEC2', NextToken: 'bogus' })),
    ).rejects.toMatchObject({ name: 'InvalidNextTokenException' });
    mock.faults.throttleNext({ service: 'pricing' }, 1);
    await expect(
      pricing.send(new GetProductsCommand({ ServiceCode: 'AmazonEC2', MaxResults: 1 })),
    ).rejects.toMatchObject({
      name: 'ThrottlingException',
    });
    mock.faults.throttleNext({ service: 'pricing' }, 1);
    const retrying = new PricingClient({ ...mock.clientConfig, maxAttempts: 2 });
    const out = await retrying.send(new GetProductsCommand({ ServiceCode: 'AmazonEC2', MaxResults: 1 }));
    expect(out.PriceList).toHaveLength(1);
    expect(out.$metadata.attempts).toBe(2);
    retrying.destroy();
    mock.faults.failNext({ service: 'pricing' }, 1, 'internal');
    await expect(pricing.send(new GetProductsCommand({ ServiceCode: 'AmazonEC2' }))).rejects.toMatchObject({
      name: 'InternalErrorException',
      $metadata: { httpStatusCode: 500 },
    });
    expect(mock.faults.calls('GetProducts')).toBe(6);
  });
});
