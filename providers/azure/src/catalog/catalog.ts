import {
  type CatalogInstanceType,
  type InstanceTypeCatalog,
  InstanceTypeCatalogApiVersion,
  InstanceTypeCatalogKind,
} from '@nodewright/core/apis';
import { catalogEntryOf } from '@nodewright/core/catalog';
import { buildInstanceType, type NodeShape } from '../instancetype/build.js';
import { AzureWellKnownLabels } from '../instancetype/labels.js';
import { STATIC_PRICES, type StaticPrice } from '../pricing/static-prices.js';
import { DefaultAzureCatalogRegion } from './catalog-providers.js';
import { SKU_FACTS, type SkuFact } from './sku-facts.js';

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
