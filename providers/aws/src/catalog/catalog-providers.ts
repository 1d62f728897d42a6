import type { CatalogProvider } from '@nodewright/core/catalog';

// The `--catalog aws` names, apart from the catalog's builder: listing them (the CLI does for
// every command) loads neither the instance-type builder nor the price table.

/**
 * Spot prices in the offline catalog, as a fraction of on-demand. Karpenter's public tables
 * carry no spot prices (spot is a market, read live with DescribeSpotPriceHistory), so the
 * catalog estimates every type's spot price as this share of its on-demand price: a typical
 * long-run spot discount of about 60 %.
 */
export const CatalogSpotFraction = 0.4;

/** The region `--catalog aws` prices. */
export const DefaultCatalogRegion = 'us-east-1';

/**
 * The regions data/aws-catalog.json prices, each offered as `--catalog aws:<region>`. Listed here
 * so the CLI's catalog list costs no file read; a unit test keeps it equal to the table's.
 */
export const AwsCatalogRegions = ['us-east-1', 'us-gov-east-1', 'us-gov-west-1'] as const;

const catalogDescription = (region: string) =>
  `current-generation EC2 types (Nitro families, all sizes to metal) at ${region} list prices, ${region}a..c, spot at ${CatalogSpotFraction}x`;

/** `--catalog aws`: every current-generation EC2 type at us-east-1 prices, offline. */
export const awsCatalogProvider: CatalogProvider = {
  name: 'aws',
  description: `${catalogDescription(DefaultCatalogRegion)}; aws:REGION for another region`,
  catalog: async () => (await import('./catalog.js')).awsCatalog(),
};

/** `--catalog aws:<region>`, one per region of the table. */
export const awsRegionCatalogProviders: readonly CatalogProvider[] = AwsCatalogRegions.map((region) => ({
  name: `aws:${region}`,
  description: catalogDescription(region),
  catalog: async () => (await import('./catalog.js')).awsCatalog({ region }),
}));
