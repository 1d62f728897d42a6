import { type AwsCatalogData, readAwsCatalogData } from '../catalog/data.js';

/** The region whose prices serve regions the static table does not list. */
export const StaticPricesFallbackRegion = 'us-east-1';

/**
 * The static on-demand Linux prices (USD per hour, shared tenancy) of a region, used until the
 * Pricing API answers and when it cannot be reached, and whether they are that region's own
 * (false: us-east-1's stand in, which callers should log). They are the offline catalog's table
 * (data/aws-catalog.json): Karpenter's generated public price tables, which list us-east-1 and
 * the GovCloud regions; see the provider README for the source and how to refresh it.
 */
export function staticOnDemandPrices(
  region: string,
  data: AwsCatalogData = readAwsCatalogData(),
): {
  readonly prices: Readonly<Record<string, number>>;
  readonly exact: boolean;
} {
  const pricesOf = (r: string) => {
    const prices: Record<string, number> = {};
    for (const row of data.instanceTypes) {
      const price = row.prices[r];
      if (price !== undefined) prices[row.name] = price;
    }
    return prices;
  };
  const own = pricesOf(region);
  if (Object.keys(own).length > 0) return { prices: own, exact: true };
  return { prices: pricesOf(StaticPricesFallbackRegion), exact: false };
}
