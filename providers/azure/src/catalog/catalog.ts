import {
  type CatalogInstanceType,
  type InstanceTypeCatalog,
  InstanceTypeCatalogApiVersion,
  InstanceTypeCatalogKind,
} from '@nodewright/core/apis';
import { type CatalogProvider, catalogEntryOf } from '@nodewright/core/catalog';
import { buildInstanceType, type NodeShape } from '../instancetype/build.js';
import { AzureWellKnownLabels } from '../instancetype/labels.js';
import { STATIC_PRICES, type StaticPrice } from '../pricing/static-prices.js';
import { SKU_FACTS, type SkuFact, STATIC_REGIONS } from './sku-facts.js';

/** The region `--catalog azure` prices. */
export const DefaultAzureCatalogRegion = 'eastus';

export interface AzureCatalogOptions {
  readonly region?: string;
  /** ARM zones to offer every size in; 1..3 by default. */
  readonly zones?: readonly string[];
  readonly shape?: NodeShape;
  readonly facts?: readonly SkuFact[];
  readonly prices?: Readonly<Record<string, Readonly<Record<string, StaticPrice>>>>;
}

/**
 * An offline InstanceTypeCatalog of the shipped VM sizes at the shipped prices of `region`,
 * built by the functions the live provider uses (labels, capacity, AKS overhead, spot only where
 * LowPriorityCapable, unpriced offerings unavailable), so `schedule --catalog azure` plans as
 * the controller would. @throws Error for a region the table does not price.
 */
export function azureCatalog(options: AzureCatalogOptions = {}): InstanceTypeCatalog {
  const region = options.region ?? DefaultAzureCatalogRegion;
  const table = (options.prices ?? STATIC_PRICES)[region];
  if (table === undefined) {
    throw new Error(
      `the offline Azure catalog has no prices for region ${region} (it has ${Object.keys(options.prices ?? STATIC_PRICES).join(', ')})`,
    );
  }
  const prices = { onDemand: (s: string) => table[s]?.onDemand, spot: (s: string) => table[s]?.spot };
  const facts = (options.facts ?? SKU_FACTS).filter((f) => table[f.name] !== undefined);
  const zones = options.zones ?? ['1', '2', '3'];
  const instanceTypes: CatalogInstanceType[] = facts.map((fact) => {
    const it = buildInstanceType(fact, options.shape ?? {}, { region, zones, prices });
    return catalogEntryOf(it);
  });
  return {
    apiVersion: InstanceTypeCatalogApiVersion,
    kind: InstanceTypeCatalogKind,
    metadata: { name: region === DefaultAzureCatalogRegion ? 'azure' : `azure-${region}` },
    wellKnownLabels: [...AzureWellKnownLabels],
    instanceTypes,
  };
}

const description = (region: string) =>
  `common Azure VM sizes (D, E, F, B, L, N series; Intel, AMD, Arm) at ${region} list and spot prices, ${region}-1..3`;

/** `--catalog azure` (eastus) and `--catalog azure:<region>` for each region of the table. */
export const azureCatalogProviders: readonly CatalogProvider[] = [
  {
    name: 'azure',
    description: `${description(DefaultAzureCatalogRegion)}; azure:REGION for another region`,
    catalog: () => azureCatalog(),
  },
  ...STATIC_REGIONS.map((region) => ({
    name: `azure:${region}`,
    description: description(region),
    catalog: () => azureCatalog({ region }),
  })),
];
