import type { CatalogProvider } from '@nodewright/core/catalog';
import { STATIC_REGIONS } from './sku-facts.js';

// The `--catalog azure` names, apart from the catalog's builder: listing them (the CLI does for
// every command) loads neither the instance-type builder nor, through it, core's metrics.

/** The region `--catalog azure` prices. */
export const DefaultAzureCatalogRegion = 'eastus';

const description = (region: string) =>
  `common Azure VM sizes (D, E, F, B, L, N series; Intel, AMD, Arm) at ${region} list and spot prices, ${region}-1..3`;

/** `--catalog azure` (eastus) and `--catalog azure:<region>` for each region of the table. */
export const azureCatalogProviders: readonly CatalogProvider[] = [
  {
    name: 'azure',
    description: `${description(DefaultAzureCatalogRegion)}; azure:REGION for another region`,
    catalog: async () => (await import('./catalog.js')).azureCatalog(),
  },
  ...STATIC_REGIONS.map((region) => ({
    name: `azure:${region}`,
    description: description(region),
    catalog: async () => (await import('./catalog.js')).azureCatalog({ region }),
  })),
];
