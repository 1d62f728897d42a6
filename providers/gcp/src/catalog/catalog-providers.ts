import type { CatalogProvider } from '@nodewright/core/catalog';

// The `--catalog gcp` names, apart from the catalog's builder: listing them (the CLI does for
// every command) loads neither the instance-type builder nor the price table.

/** The region `--catalog gcp` prices. */
export const DefaultGcpCatalogRegion = 'us-central1';

/** The regions the shipped price table covers; a unit test keeps it equal to the table's. */
export const GcpCatalogRegions = ['us-central1', 'us-east1'] as const;

const description = (region: string) =>
  `Compute Engine e2, n2, n2d, n4, c3, c3d, c4, t2d, t2a, g2 at ${region} list prices (on-demand and spot), its zones`;

/** `--catalog gcp` and `--catalog gcp:<region>`. */
export const gcpCatalogProviders: readonly CatalogProvider[] = [
  {
    name: 'gcp',
    description: `${description(DefaultGcpCatalogRegion)}; gcp:REGION for another region`,
    catalog: async () => (await import('./catalog.js')).gcpCatalog(),
  },
  ...GcpCatalogRegions.map((region) => ({
    name: `gcp:${region}`,
    description: description(region),
    catalog: async () => (await import('./catalog.js')).gcpCatalog({ region }),
  })),
];
