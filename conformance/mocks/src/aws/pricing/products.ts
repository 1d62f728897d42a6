import { hexOf } from '../seed/hash.js';
import type { InstanceTypeFacts } from '../seed/instance-types.js';
import { roundUsd, windowsPremium } from '../seed/prices.js';
import type { RegionFacts } from '../seed/regions.js';

/** One EC2 product of the price list with its hourly on-demand price. */
export interface PriceProduct {
  readonly sku: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly usd: number;
}

/** EC2's on-demand offer term code and price-per-hour rate code, the same in every real SKU. */
const ON_DEMAND_TERM = 'JRTCKXETXF';
const HOURLY_RATE = '6YS6EN2CT7';

const USAGE_PREFIX: Record<string, string> = { 'us-east-1': '', 'us-west-2': 'USW2-' };

interface Variant {
  readonly operatingSystem: string;
  readonly tenancy: string;
  readonly capacitystatus: string;
  readonly usage: string;
  readonly operation: string;
  readonly price: (t: InstanceTypeFacts) => number;
}

/**
 * The variants a real price list has for every type; only the first is what the provider asks
 * for (Linux, Shared, Used, NA), the others make its filters matter.
 */
const VARIANTS: readonly Variant[] = [
  {
    operatingSystem: 'Linux',
    tenancy: 'Shared',
    capacitystatus: 'Used',
    usage: 'BoxUsage',
    operation: 'RunInstances',
    price: (t) => t.onDemandUsd,
  },
  {
    operatingSystem: 'Linux',
    tenancy: 'Shared',
    capacitystatus: 'UnusedCapacityReservation',
    usage: 'Reservation',
    operation: 'RunInstances',
    price: (t) => t.onDemandUsd,
  },
  {
    operatingSystem: 'Linux',
    tenancy: 'Shared',
    capacitystatus: 'AllocatedCapacityReservation',
    usage: 'Reservation',
    operation: 'RunInstances',
    price: () => 0,
  },
  {
    operatingSystem: 'Linux',
    tenancy: 'Dedicated',
    capacitystatus: 'Used',
    usage: 'DedicatedUsage',
    operation: 'RunInstances',
    price: (t) => roundUsd(t.onDemandUsd * 1.1),
  },
  {
    operatingSystem: 'Windows',
    tenancy: 'Shared',
    capacitystatus: 'Used',
    usage: 'BoxUsage',
    operation: 'RunInstances:0002',
    price: (t) => roundUsd(t.onDemandUsd + windowsPremium(t)),
  },
];

function instanceFamily(t: InstanceTypeFacts): string {
  if (t.gpu) return 'GPU instance';
  if (t.name.startsWith('c')) return 'Compute optimized';
  if (t.name.startsWith('r')) return 'Memory optimized';
  return 'General purpose';
}

/** Every EC2 product the Pricing mock serves for the seeded regions. */
export function priceProducts(
  types: readonly InstanceTypeFacts[],
  regions: readonly RegionFacts[],
): PriceProduct[] {
  const out: PriceProduct[] = [];
  for (const region of regions) {
    for (const t of types) {
      for (const v of VARIANTS) {
        const sku = hexOf(
          `${region.name}/${t.name}/${v.operatingSystem}/${v.tenancy}/${v.capacitystatus}`,
          16,
        ).toUpperCase();
        out.push({
          sku,
          usd: v.price(t),
          attributes: {
            servicecode: 'AmazonEC2',
            servicename: 'Amazon Elastic Compute Cloud',
            location: region.location,
            locationType: 'AWS Region',
            regionCode: region.name,
            instanceType: t.name,
            instanceFamily: instanceFamily(t),
            currentGeneration: t.currentGeneration ? 'Yes' : 'No',
            vcpu: String(t.vcpus),
            memory: `${t.memoryMiB / 1024} GiB`,
            storage: t.localNvmeGB === undefined ? 'EBS only' : `1 x ${t.localNvmeGB} NVMe SSD`,
            networkPerformance: t.networkPerformance,
            processorArchitecture: '64-bit',
            physicalProcessor: t.processor,
            clockSpeed: `${t.clockGhz} GHz`,
            ...(t.gpu ? { gpu: String(t.gpu.count), gpuMemory: `${t.gpu.memoryMiB / 1024} GiB` } : {}),
            tenancy: v.tenancy,
            operatingSystem: v.operatingSystem,
            licenseModel: 'No License required',
            usagetype: `${USAGE_PREFIX[region.name] ?? ''}${v.usage}:${t.name}`,
            operation: v.operation,
            capacitystatus: v.capacitystatus,
            preInstalledSw: 'NA',
            marketoption: 'OnDemand',
            instancesku: hexOf(`${region.name}/${t.name}/instancesku`, 16).toUpperCase(),
          },
        });
      }
    }
  }
  return out;
}

/** The JSON string PriceList carries for one product, in the shape of `FormatVersion: aws_v1`. */
export function priceListEntry(p: PriceProduct, publicationDate: string): string {
  const offer = `${p.sku}.${ON_DEMAND_TERM}`;
  const rate = `${offer}.${HOURLY_RATE}`;
  const a = p.attributes;
  return JSON.stringify({
    product: { productFamily: 'Compute Instance', attributes: a, sku: p.sku },
    serviceCode: 'AmazonEC2',
    terms: {
      OnDemand: {
        [offer]: {
          priceDimensions: {
            [rate]: {
              unit: 'Hrs',
              endRange: 'Inf',
              description: `$${p.usd} per On Demand ${a.operatingSystem} ${a.instanceType} Instance Hour`,
              appliesTo: [],
              rateCode: rate,
              beginRange: '0',
              pricePerUnit: { USD: p.usd.toFixed(10) },
            },
          },
          sku: p.sku,
          effectiveDate: publicationDate,
          offerTermCode: ON_DEMAND_TERM,
          termAttributes: {},
        },
      },
    },
    version: publicationDate.replace(/\D/g, '').slice(0, 14),
    publicationDate,
  });
}
