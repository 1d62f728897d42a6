import type { ArmContext, ArmReply, ArmRequest } from '../arm/context.js';
import { ArmError } from '../arm/errors.js';
import { page } from '../arm/paging.js';
import type { RetailPriceItem } from '../seed/retail-prices.js';

type Field = keyof RetailPriceItem;

/** Filter names the API accepts for item fields of another name (`priceType` filters `type`). */
const FilterAliases: Readonly<Record<string, Field>> = { priceType: 'type' };

/**
 * A Retail Prices `$filter`: `field eq 'value'` terms joined by `and` (the subset clients
 * use), as a predicate. Anything else is a 400, as the real API refuses what it cannot parse.
 */
export function parsePriceFilter(filter: string): (item: RetailPriceItem) => boolean {
  const terms = filter.split(/\s+and\s+/i).map((term) => {
    const m = /^\s*\(?\s*(\w+)\s+eq\s+'([^']*)'\s*\)?\s*$/i.exec(term);
    if (m === null) throw new ArmError(400, 'BadRequest', `Invalid OData filter term: ${term}`);
    return { field: FilterAliases[m[1]!] ?? (m[1]! as Field), value: m[2]! };
  });
  return (item) =>
    terms.every(({ field, value }) => {
      const actual = item[field];
      // The API compares strings case-insensitively.
      return typeof actual === 'string' && actual.toLowerCase() === value.toLowerCase();
    });
}

/** `GET /api/retail/prices?$filter=...`: `{BillingCurrency, Items, NextPageLink, Count}`. */
export function retailPrices(req: ArmRequest, ctx: ArmContext): ArmReply {
  const filter = req.query.get('$filter');
  const items = filter === null ? ctx.prices : ctx.prices.filter(parsePriceFilter(filter));
  const url = `${ctx.origin}/api/retail/prices`;
  const { items: slice, next } = page(items, req.query, { pageSize: ctx.pricePageSize, param: '$skip', url });
  return {
    status: 200,
    body: {
      BillingCurrency: 'USD',
      CustomerEntityId: 'Default',
      CustomerEntityType: 'Retail',
      Items: slice,
      NextPageLink: next ?? null,
      Count: slice.length,
    },
  };
}
