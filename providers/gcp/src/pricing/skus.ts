import type { ComponentPrices, FamilyPrices, GpuPrices } from './components.js';

/** A Cloud Billing Catalog SKU (the fields read here). */
export interface BillingSku {
  readonly description?: string | null;
  readonly category?: {
    readonly resourceFamily?: string | null;
    readonly usageType?: string | null;
  } | null;
  readonly serviceRegions?: readonly string[] | null;
  readonly pricingInfo?: readonly {
    readonly effectiveTime?: string | null;
    readonly pricingExpression?: {
      readonly tieredRates?: readonly {
        readonly startUsageAmount?: number | null;
        readonly unitPrice?: { readonly units?: string | null; readonly nanos?: number | null } | null;
      }[];
    } | null;
  }[];
}

/** Compute Engine's service id in the billing catalog. */
export const ComputeServiceId = '6F81-5844-456A';

/** How the catalog's SKU descriptions name each family (`N2D AMD Instance Core running in ...`). */
export const FamilyTitles: Readonly<Record<string, string>> = {
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

/** How the catalog names each GPU (`Nvidia L4 GPU running in ...`). */
export const GpuTitles: Readonly<Record<string, string>> = {
  'nvidia-l4': 'Nvidia L4',
  'nvidia-tesla-a100': 'Nvidia Tesla A100',
  'nvidia-h100-80gb': 'Nvidia H100 80GB',
};

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The newest price of a SKU, in USD per usage unit (the last tier: the paid one). */
export function skuUnitPrice(sku: BillingSku): number | undefined {
  const newest = [...(sku.pricingInfo ?? [])].sort((a, b) =>
    (a.effectiveTime ?? '') < (b.effectiveTime ?? '') ? -1 : 1,
  );
  const rates = newest.at(-1)?.pricingExpression?.tieredRates ?? [];
  const price = rates.at(-1)?.unitPrice;
  if (price === undefined || price === null) return undefined;
  return Number(price.units ?? 0) + (price.nanos ?? 0) / 1e9;
}

type Slot = 'core' | 'ram' | 'spotCore' | 'spotRam';

/**
 * The region's component prices from Compute Engine SKUs: the predefined (on-demand) and spot
 * (`Preemptible` usage) core and RAM SKUs of each known family, and the GPUs. SKUs of other
 * regions, commitments, sole tenancy, custom types and other resources are skipped. A family
 * appears only when both its on-demand core and RAM prices were found.
 */
export function componentPricesFromSkus(skus: Iterable<BillingSku>, region: string): ComponentPrices {
  const found = new Map<string, Partial<Record<Slot, number>>>();
  const gpus = new Map<string, { onDemand?: number; spot?: number }>();
  const families = Object.entries(FamilyTitles).map(([family, title]) => ({
    family,
    re: new RegExp(`^(Spot Preemptible )?${escapeRe(title)} Instance (Core|Ram) running in `),
  }));
  const gpuRes = Object.entries(GpuTitles).map(([gpu, title]) => ({
    gpu,
    re: new RegExp(`^(Spot Preemptible )?${escapeRe(title)} GPU running in `),
  }));
  for (const sku of skus) {
    if (sku.category?.resourceFamily !== 'Compute') continue;
    if (!(sku.serviceRegions ?? []).includes(region)) continue;
    const usage = sku.category.usageType;
    if (usage !== 'OnDemand' && usage !== 'Preemptible') continue;
    const description = sku.description ?? '';
    const price = skuUnitPrice(sku);
    if (price === undefined) continue;
    const spot = usage === 'Preemptible';
    for (const { family, re } of families) {
      const m = re.exec(description);
      if (m === null || (m[1] !== undefined) !== spot) continue;
      const slot: Slot = m[2] === 'Core' ? (spot ? 'spotCore' : 'core') : spot ? 'spotRam' : 'ram';
      found.set(family, { ...found.get(family), [slot]: price });
    }
    for (const { gpu, re } of gpuRes) {
      const m = re.exec(description);
      if (m === null || (m[1] !== undefined) !== spot) continue;
      gpus.set(gpu, { ...gpus.get(gpu), [spot ? 'spot' : 'onDemand']: price });
    }
  }
  const outFamilies: Record<string, FamilyPrices> = {};
  for (const [family, p] of found) {
    if (p.core === undefined || p.ram === undefined) continue;
    outFamilies[family] = { core: p.core, ram: p.ram, spotCore: p.spotCore, spotRam: p.spotRam };
  }
  const outGpus: Record<string, GpuPrices> = {};
  for (const [gpu, p] of gpus)
    if (p.onDemand !== undefined) outGpus[gpu] = { onDemand: p.onDemand, spot: p.spot };
  return { families: outFamilies, gpus: outGpus };
}
