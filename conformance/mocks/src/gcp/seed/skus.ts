/**
 * Per-vCPU and per-GiB hourly list prices (USD) of the seeded families in us-central1, as
 * Compute Engine publishes them for predefined on-demand VMs; us-east1 is priced the same for
 * these families. Spot figures are one month's: spot prices move at most once a month.
 */
export const ComponentPrices: Readonly<
  Record<string, { core: number; ram: number; spotCore: number; spotRam: number }>
> = {
  e2: { core: 0.021811, ram: 0.002923, spotCore: 0.006543, spotRam: 0.000877 },
  n2: { core: 0.031611, ram: 0.004237, spotCore: 0.007646, spotRam: 0.001025 },
  n2d: { core: 0.027502, ram: 0.003686, spotCore: 0.005796, spotRam: 0.000777 },
  n4: { core: 0.030394, ram: 0.004102, spotCore: 0.009119, spotRam: 0.001231 },
  c3: { core: 0.03398, ram: 0.00455, spotCore: 0.011893, spotRam: 0.001593 },
  c3d: { core: 0.029563, ram: 0.003959, spotCore: 0.007391, spotRam: 0.00099 },
  c4: { core: 0.03465, ram: 0.003938, spotCore: 0.012473, spotRam: 0.001418 },
  t2d: { core: 0.027502, ram: 0.003686, spotCore: 0.006512, spotRam: 0.000873 },
  t2a: { core: 0.0224, ram: 0.004, spotCore: 0.0067, spotRam: 0.0012 },
  g2: { core: 0.024988, ram: 0.002938, spotCore: 0.009995, spotRam: 0.001175 },
};

/** NVIDIA L4 per GPU-hour, on-demand and spot. */
export const L4Price = { onDemand: 0.55987, spot: 0.2236 };

/** How the billing catalog names each family in SKU descriptions. */
const FamilyTitles: Readonly<Record<string, string>> = {
  e2: 'E2',
  n2: 'N2',
  n2d: 'N2D AMD',
  n4: 'N4',
  c3: 'C3',
  c3d: 'C3D AMD',
  c4: 'C4',
  t2d: 'T2D AMD',
  t2a: 'T2A Arm',
  g2: 'G2',
};

/** A Cloud Billing Catalog SKU, in the API's JSON shape. */
export interface BillingSku {
  readonly name: string;
  readonly skuId: string;
  readonly description: string;
  readonly category: {
    readonly serviceDisplayName: 'Compute Engine';
    readonly resourceFamily: 'Compute';
    readonly resourceGroup: string;
    readonly usageType: 'OnDemand' | 'Preemptible' | 'Commit1Yr';
  };
  readonly serviceRegions: readonly string[];
  readonly pricingInfo: readonly {
    readonly effectiveTime: string;
    readonly pricingExpression: {
      readonly usageUnit: string;
      readonly usageUnitDescription: string;
      readonly baseUnit: string;
      readonly baseUnitConversionFactor: number;
      readonly tieredRates: readonly {
        readonly startUsageAmount: number;
        readonly unitPrice: { readonly currencyCode: 'USD'; readonly units: string; readonly nanos: number };
      }[];
    };
  }[];
  readonly serviceProviderName: 'Google';
}

/** Compute Engine's service id in the billing catalog. */
export const ComputeServiceId = '6F81-5844-456A';

function money(usd: number) {
  const units = Math.trunc(usd);
  return { currencyCode: 'USD' as const, units: String(units), nanos: Math.round((usd - units) * 1e9) };
}

function sku(
  id: number,
  description: string,
  group: string,
  usage: BillingSku['category']['usageType'],
  regions: readonly string[],
  unit: 'h' | 'GiBy.h',
  usd: number,
): BillingSku {
  const skuId = `${(0x1000 + id).toString(16).toUpperCase()}-${(0xa000 + id * 7).toString(16).toUpperCase()}-${(0x3000 + id * 13).toString(16).toUpperCase()}`;
  return {
    name: `services/${ComputeServiceId}/skus/${skuId}`,
    skuId,
    description,
    category: {
      serviceDisplayName: 'Compute Engine',
      resourceFamily: 'Compute',
      resourceGroup: group,
      usageType: usage,
    },
    serviceRegions: regions,
    pricingInfo: [
      {
        effectiveTime: '2026-11-01T08:00:00.000Z',
        pricingExpression: {
          usageUnit: unit,
          usageUnitDescription: unit === 'h' ? 'hour' : 'gibibyte hour',
          baseUnit: unit === 'h' ? 's' : 'By.s',
          baseUnitConversionFactor: unit === 'h' ? 3600 : 3865470566400,
          tieredRates: [{ startUsageAmount: 0, unitPrice: money(usd) }],
        },
      },
    ],
    serviceProviderName: 'Google',
  };
}

/**
 * The Compute Engine SKUs for the seeded families and regions: core and RAM, on-demand and
 * spot, the L4 GPU, plus SKUs a price reader must skip (commitments, sole tenancy, a disk).
 */
export function seedSkus(regions: readonly string[]): BillingSku[] {
  const out: BillingSku[] = [];
  let id = 0;
  for (const [family, p] of Object.entries(ComponentPrices)) {
    const title = FamilyTitles[family]!;
    const group = family.toUpperCase();
    out.push(
      sku(id++, `${title} Instance Core running in Americas`, 'CPU', 'OnDemand', regions, 'h', p.core),
    );
    out.push(
      sku(id++, `${title} Instance Ram running in Americas`, 'RAM', 'OnDemand', regions, 'GiBy.h', p.ram),
    );
    out.push(
      sku(
        id++,
        `Spot Preemptible ${title} Instance Core running in Americas`,
        'CPU',
        'Preemptible',
        regions,
        'h',
        p.spotCore,
      ),
    );
    out.push(
      sku(
        id++,
        `Spot Preemptible ${title} Instance Ram running in Americas`,
        'RAM',
        'Preemptible',
        regions,
        'GiBy.h',
        p.spotRam,
      ),
    );
    out.push(
      sku(
        id++,
        `Commitment v1: ${title} Cpu in Americas for 1 Year`,
        'CPU',
        'Commit1Yr',
        regions,
        'h',
        p.core * 0.63,
      ),
    );
    out.push(
      sku(
        id++,
        `${title} Sole Tenancy Instance Core running in Americas`,
        group,
        'OnDemand',
        regions,
        'h',
        p.core * 1.1,
      ),
    );
  }
  out.push(sku(id++, 'Nvidia L4 GPU running in Americas', 'GPU', 'OnDemand', regions, 'h', L4Price.onDemand));
  out.push(
    sku(
      id++,
      'Spot Preemptible Nvidia L4 GPU running in Americas',
      'GPU',
      'Preemptible',
      regions,
      'h',
      L4Price.spot,
    ),
  );
  out.push(sku(id++, 'Balanced PD Capacity', 'SSD', 'OnDemand', regions, 'GiBy.h', 0.1 / 730));
  return out;
}
