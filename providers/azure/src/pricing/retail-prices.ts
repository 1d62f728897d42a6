/** One row of the Retail Prices API, the fields the provider reads. */
export interface RetailPriceRow {
  readonly armSkuName?: string;
  readonly armRegionName?: string;
  readonly retailPrice?: number;
  readonly currencyCode?: string;
  readonly type?: string;
  readonly skuName?: string;
  readonly productName?: string;
  readonly serviceName?: string;
}

/** A page of the Retail Prices API. */
export interface RetailPricesPage {
  readonly Items?: readonly RetailPriceRow[];
  readonly NextPageLink?: string | null;
}

/** Linux VM prices read from the Retail Prices API, per size. */
export interface LivePrices {
  readonly onDemand: ReadonlyMap<string, number>;
  readonly spot: ReadonlyMap<string, number>;
}

/** The `$filter` for a region's Linux-and-Windows VM consumption rows (Windows dropped client-side). */
export function retailPricesFilter(region: string): string {
  return `serviceName eq 'Virtual Machines' and armRegionName eq '${region}' and priceType eq 'Consumption'`;
}

/**
 * Keeps the rows that price a Linux VM by the hour in USD: Consumption only (not DevTest or
 * Reservation), Windows products and Low Priority meters dropped; a `skuName` ending in `Spot`
 * is the spot price. Where a size has two rows of one kind, the lower wins (a cheaper meter for
 * the same VM is what the bill shows).
 */
export function pricesFromRows(rows: Iterable<RetailPriceRow>, region: string): LivePrices {
  const onDemand = new Map<string, number>();
  const spot = new Map<string, number>();
  for (const row of rows) {
    if (row.type !== 'Consumption' || row.currencyCode !== 'USD') continue;
    if (row.armRegionName !== region || row.armSkuName === undefined) continue;
    if (row.serviceName !== undefined && row.serviceName !== 'Virtual Machines') continue;
    if ((row.productName ?? '').includes('Windows')) continue;
    const sku = row.skuName ?? '';
    if (sku.endsWith('Low Priority')) continue;
    const price = row.retailPrice;
    if (price === undefined || !Number.isFinite(price) || price <= 0) continue;
    const table = sku.endsWith(' Spot') ? spot : onDemand;
    const seen = table.get(row.armSkuName);
    if (seen === undefined || price < seen) table.set(row.armSkuName, price);
  }
  return { onDemand, spot };
}
