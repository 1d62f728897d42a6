import { describe, expect, it } from 'vitest';
import type { GceMachineTypeFacts } from '../instancetype/facts.js';
import { machineTypePrice } from './components.js';
import { type BillingSku, componentPricesFromSkus } from './skus.js';

const sku = (description: string, usageType: string, usd: number, regions = ['us-central1']): BillingSku => ({
  description,
  category: { resourceFamily: 'Compute', usageType },
  serviceRegions: regions,
  pricingInfo: [
    {
      effectiveTime: '2026-01-01T00:00:00Z',
      pricingExpression: { tieredRates: [{ startUsageAmount: 0, unitPrice: { units: '9', nanos: 0 } }] },
    },
    {
      effectiveTime: '2026-11-01T00:00:00Z',
      pricingExpression: {
        tieredRates: [
          {
            startUsageAmount: 0,
            unitPrice: { units: String(Math.trunc(usd)), nanos: Math.round((usd % 1) * 1e9) },
          },
        ],
      },
    },
  ],
});

const n2: GceMachineTypeFacts = {
  name: 'n2-standard-8',
  vcpus: 8,
  memoryMiB: 32768,
  sharedCpu: false,
  architecture: 'amd64',
  zones: ['us-central1-a'],
};

describe('component prices from billing SKUs', () => {
  const skus = [
    sku('N2 Instance Core running in Americas', 'OnDemand', 0.031611),
    sku('N2 Instance Ram running in Americas', 'OnDemand', 0.004237),
    sku('Spot Preemptible N2 Instance Core running in Americas', 'Preemptible', 0.007646),
    sku('Spot Preemptible N2 Instance Ram running in Americas', 'Preemptible', 0.001025),
    sku('N2 Instance Core running in Belgium', 'OnDemand', 0.5, ['europe-west1']),
    sku('Commitment v1: N2 Cpu in Americas for 1 Year', 'Commit1Yr', 0.02),
    sku('N2 Sole Tenancy Instance Core running in Americas', 'OnDemand', 0.04),
    sku('N2 Custom Instance Core running in Americas', 'OnDemand', 0.05),
    sku('N2D AMD Instance Core running in Americas', 'OnDemand', 0.027502),
    sku('Nvidia L4 GPU running in Americas', 'OnDemand', 0.55987),
    sku('Spot Preemptible Nvidia L4 GPU running in Americas', 'Preemptible', 0.2236),
  ];
  const prices = componentPricesFromSkus(skus, 'us-central1');

  it("takes the region's newest predefined and spot core/RAM prices, skipping commitments, sole tenancy and custom", () => {
    expect(prices.families.n2).toEqual({
      core: 0.031611,
      ram: 0.004237,
      spotCore: 0.007646,
      spotRam: 0.001025,
    });
    expect(prices.gpus['nvidia-l4']).toEqual({ onDemand: 0.55987, spot: 0.2236 });
  });

  it('leaves out a family without both on-demand components', () => {
    expect(prices.families.n2d).toBeUndefined();
  });

  it('composes a type price from vCPUs, GiB and GPUs; none when a component is missing', () => {
    expect(machineTypePrice(n2, prices, 'on-demand')).toBe(0.388472);
    expect(machineTypePrice(n2, prices, 'spot')).toBe(0.093968);
    expect(machineTypePrice({ ...n2, name: 'n2d-standard-8' }, prices, 'on-demand')).toBeUndefined();
    const g2 = {
      ...n2,
      name: 'n2-standard-4',
      vcpus: 4,
      memoryMiB: 16384,
      gpu: { name: 'nvidia-l4', count: 1 },
    };
    expect(machineTypePrice(g2, prices, 'on-demand')).toBeCloseTo(4 * 0.031611 + 16 * 0.004237 + 0.55987, 6);
    expect(
      machineTypePrice({ ...g2, gpu: { name: 'nvidia-h100-80gb', count: 8 } }, prices, 'on-demand'),
    ).toBeUndefined();
  });

  it('bills E2 shared-core types for their fraction of a vCPU', () => {
    const e2 = { families: { e2: { core: 0.021811, ram: 0.002923 } }, gpus: {} };
    const micro = { ...n2, name: 'e2-micro', vcpus: 2, memoryMiB: 1024, sharedCpu: true };
    expect(machineTypePrice(micro, e2, 'on-demand')).toBe(0.008376);
    expect(machineTypePrice(micro, e2, 'spot')).toBeUndefined();
  });
});
