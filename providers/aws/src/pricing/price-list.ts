/** One on-demand price read from a Pricing API PriceList entry. */
export interface OnDemandPriceEntry {
  readonly instanceType: string;
  readonly price: number;
}

/** The outcome of reading one PriceList string. */
export type PriceListResult = { readonly entry: OnDemandPriceEntry } | { readonly skipped: string };

interface PriceListDocument {
  product?: { attributes?: { instanceType?: unknown; marketoption?: unknown } };
  terms?: {
    OnDemand?: Record<string, { priceDimensions?: Record<string, { pricePerUnit?: { USD?: unknown } }> }>;
  };
}

/**
 * Reads one GetProducts PriceList item (a JSON document as a string): the instance type from
 * `product.attributes.instanceType` and the hourly USD price from the first non-zero
 * `terms.OnDemand.*.priceDimensions.*.pricePerUnit.USD`. Items whose `marketoption` is set and
 * not `OnDemand` (Capacity Blocks) and anything else unreadable are skipped with a reason
 * (zero prices belong to reservations and placeholders, not to a type one can launch).
 */
export function parsePriceListItem(item: string): PriceListResult {
  let doc: PriceListDocument;
  try {
    doc = JSON.parse(item) as PriceListDocument;
  } catch (error) {
    return {
      skipped: `PriceList item is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const instanceType = doc.product?.attributes?.instanceType;
  if (typeof instanceType !== 'string' || instanceType === '') {
    return { skipped: 'PriceList item without product.attributes.instanceType' };
  }
  // Capacity Blocks share the on-demand filters but not the price; the request does not filter
  // on marketoption (not every price list carries it), so they are dropped here.
  const market = doc.product?.attributes?.marketoption;
  if (market !== undefined && market !== 'OnDemand') {
    return { skipped: `${instanceType}: marketoption ${String(market)} is not OnDemand` };
  }
  for (const term of Object.values(doc.terms?.OnDemand ?? {})) {
    for (const dimension of Object.values(term.priceDimensions ?? {})) {
      const usd = dimension.pricePerUnit?.USD;
      const price = typeof usd === 'string' ? Number.parseFloat(usd) : Number.NaN;
      if (Number.isFinite(price) && price > 0) return { entry: { instanceType, price } };
    }
  }
  return { skipped: `${instanceType}: no non-zero USD price in terms.OnDemand` };
}
