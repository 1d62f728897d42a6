import { checkApiVersion } from '../arm/api-versions.js';
import type { ArmContext, ArmReply, ArmRequest } from '../arm/context.js';
import { ArmError } from '../arm/errors.js';
import { page } from '../arm/paging.js';

/**
 * `GET /subscriptions/{sub}/providers/Microsoft.Compute/skus`: the SKUs, optionally filtered
 * `location eq '<region>'` (the only filter ARM accepts here), paged with nextLink.
 */
export function listSkus(req: ArmRequest, ctx: ArmContext): ArmReply {
  checkApiVersion('skus', req.query);
  const filter = req.query.get('$filter');
  let skus = ctx.skus();
  if (filter !== null) {
    const match = /^\s*location\s+eq\s+'([^']+)'\s*$/i.exec(filter);
    if (match === null)
      throw new ArmError(
        400,
        'InvalidFilter',
        `The filter '${filter}' is not supported; use location eq '<location>'.`,
      );
    const location = match[1]!.toLowerCase();
    skus = skus.filter((s) => s.locations.some((l) => l.toLowerCase() === location));
  }
  const url = `${ctx.origin}/subscriptions/${ctx.subscriptionId}/providers/Microsoft.Compute/skus`;
  const { items, next } = page(skus, req.query, { pageSize: ctx.skuPageSize, param: '$skiptoken', url });
  return { status: 200, body: next === undefined ? { value: items } : { value: items, nextLink: next } };
}
