/**
 * One page of `items`, from the offset in `param` (`$skiptoken` for ARM lists, `$skip` for the
 * Retail Prices API), with the link to the next page if there is one.
 */
export function page<T>(
  items: readonly T[],
  query: URLSearchParams,
  options: { readonly pageSize: number; readonly param: '$skiptoken' | '$skip'; readonly url: string },
): { items: T[]; next?: string } {
  const skip = Number(query.get(options.param) ?? '0');
  const slice = items.slice(skip, skip + options.pageSize);
  if (skip + options.pageSize >= items.length) return { items: slice };
  const next = new URLSearchParams(query);
  next.set(options.param, String(skip + options.pageSize));
  return { items: slice, next: `${options.url}?${next.toString()}` };
}
