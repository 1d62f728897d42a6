import type { InstanceType } from '../../cloudprovider/instance-type.js';
import type { ResourceList } from '../resources/resource-list.js';

/** A lower bound and the resources that set it (one, or two when their mix binds). */
export interface LowerBound {
  /** Per hour, in the catalog's currency; 0 without requests, Infinity if no type can hold them. */
  readonly perHour: number;
  readonly binding: readonly string[];
}

/**
 * Relative slack taken off the bound so that floating-point error in the divisions below can
 * never lift it above a cost that meets it exactly.
 */
const Slack = 1e-9;

/**
 * A provable lower bound on the hourly cost of any placement of these pods onto new nodes of
 * these types; see {@link explainLowerBound}.
 */
export function lowerBoundPerHour(
  podRequests: Iterable<ResourceList>,
  instanceTypes: Iterable<InstanceType>,
): number {
  return explainLowerBound(podRequests, instanceTypes).perHour;
}

/**
 * A provable lower bound on the hourly cost of any placement of the pods onto new nodes of
 * the given types, and the resources that set it.
 *
 * Why it is a bound. Any placement buys some nodes; say x_t nodes of type t. Each costs at
 * least p_t, the cheapest available offering of t, and the pods on it request no more than its
 * allocatable a_t, so for every resource r: sum_t x_t a_t(r) >= R(r), the total the pods request.
 * The cost C is at least sum_t x_t p_t.
 *
 * - One resource: sum_t x_t p_t = sum_t x_t a_t(r) (p_t / a_t(r)) >= R(r) min_t p_t / a_t(r), so
 *   C >= R(r) times the cheapest price per unit of r. Types with a_t(r) = 0 add cost but no r,
 *   so leaving them out of the minimum keeps the inequality. That holds for every r; the
 *   largest is the bound.
 * - Two resources r, s together: let v_t = (a_t(r), a_t(s)) / p_t, what one unit of money buys
 *   with type t, and C' = sum_t x_t p_t. The weights w_t = x_t p_t / C' sum to one, so
 *   u = sum_t w_t v_t lies in the convex hull of the v_t, and u >= (R(r), R(s)) / C'. Hence
 *   1 / C' <= M, the largest min(u_r / R(r), u_s / R(s)) over the hull, and C >= C' >= 1 / M.
 *   This is the linear-programming relaxation of buying nodes for r and s at once, so it is
 *   never below either one-resource bound and is tighter when no single type matches the pods'
 *   mix of r and s. M is a maximum of a concave function over a polygon, reached at a vertex or
 *   where an edge crosses u_r / R(r) = u_s / R(s); every edge of the hull joins two of the
 *   points, so checking every point and every pair of points finds it exactly.
 *
 * DaemonSet overhead, topology, affinity and the pods' own requirements only ever add to what a
 * placement must buy, so ignoring them keeps the bound valid (and loosens it). Types without an
 * available offering cannot be bought and are ignored. If some requested resource is offered by
 * no type, no placement exists and the bound is Infinity. The result is lowered by one part in
 * 10^9 to absorb floating-point error.
 */
export function explainLowerBound(
  podRequests: Iterable<ResourceList>,
  instanceTypes: Iterable<InstanceType>,
): LowerBound {
  return explainTotals(totalRequests(podRequests), instanceTypes);
}

/** explainLowerBound of requests already summed per resource (see totalRequests). */
export function explainTotals(
  totals: ReadonlyMap<string, number>,
  instanceTypes: Iterable<InstanceType>,
): LowerBound {
  const resources = [...totals.keys()].sort();
  if (resources.length === 0) return { perHour: 0, binding: [] };
  const offers = purchasable(instanceTypes, resources);

  let best: LowerBound = { perHour: 0, binding: [] };
  const consider = (perHour: number, binding: string[]) => {
    if (perHour > best.perHour) best = { perHour, binding };
  };
  for (const [i, r] of resources.entries()) {
    let cheapest = Number.POSITIVE_INFINITY;
    for (const o of offers)
      if (o.allocatable[i]! > 0) cheapest = Math.min(cheapest, o.price / o.allocatable[i]!);
    if (cheapest === Number.POSITIVE_INFINITY) return { perHour: Number.POSITIVE_INFINITY, binding: [r] };
    consider(totals.get(r)! * cheapest, [r]);
  }
  for (let i = 0; i < resources.length; i++) {
    for (let j = i + 1; j < resources.length; j++) {
      const bound = pairBound(offers, i, j, totals.get(resources[i]!)!, totals.get(resources[j]!)!);
      consider(bound, [resources[i]!, resources[j]!]);
    }
  }
  return { perHour: best.perHour * (1 - Slack), binding: best.binding };
}

interface Offer {
  readonly price: number;
  /** Allocatable per resource, in the order of the requested resources. */
  readonly allocatable: readonly number[];
}

/** Requested totals per resource (in units, as floating point), resources with zero left out. */
export function totalRequests(podRequests: Iterable<ResourceList>): Map<string, number> {
  const nanos = new Map<string, bigint>();
  for (const requests of podRequests) {
    for (const [name, q] of requests) nanos.set(name, (nanos.get(name) ?? 0n) + q.nanos);
  }
  const totals = new Map<string, number>();
  for (const [name, n] of nanos) if (n > 0n) totals.set(name, Number(n) / 1e9);
  return totals;
}

/** Each type's cheapest available price and allocatable; types that cannot be bought left out. */
function purchasable(instanceTypes: Iterable<InstanceType>, resources: readonly string[]): Offer[] {
  const offers: Offer[] = [];
  for (const type of instanceTypes) {
    let price = Number.POSITIVE_INFINITY;
    for (const o of type.offerings) if (o.available && o.price < price) price = o.price;
    if (!Number.isFinite(price)) continue;
    const allocatable = resources.map((r) => {
      const q = type.allocatable.get(r);
      return q === undefined || q.nanos <= 0n ? 0 : Number(q.nanos) / 1e9;
    });
    offers.push({ price, allocatable });
  }
  return offers;
}

/**
 * 1 / M for resources i and j (see explainLowerBound): the least cost at which a mix of the
 * types can hold totals ri and rj of both, fractional nodes allowed.
 */
function pairBound(offers: readonly Offer[], i: number, j: number, ri: number, rj: number): number {
  const points: Array<readonly [number, number]> = [];
  const seen = new Set<string>();
  for (const o of offers) {
    const ai = o.allocatable[i]!;
    const aj = o.allocatable[j]!;
    if (ai === 0 && aj === 0) continue;
    // A free type that offers either resource makes that one free; the one-resource bounds
    // already cover what remains, and leaving a candidate bound out keeps the maximum valid.
    if (o.price === 0) return 0;
    const point = [ai / o.price / ri, aj / o.price / rj] as const;
    const key = `${point[0]},${point[1]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    points.push(point);
  }
  let m = 0;
  for (let a = 0; a < points.length; a++) {
    const [x0, y0] = points[a]!;
    m = Math.max(m, Math.min(x0, y0));
    for (let b = a + 1; b < points.length; b++) {
      const [x1, y1] = points[b]!;
      const d0 = x0 - y0;
      const d1 = x1 - y1;
      // The segment crosses x = y only where the difference changes sign.
      if (d0 * d1 >= 0) continue;
      const t = d0 / (d0 - d1);
      m = Math.max(m, x0 + t * (x1 - x0));
    }
  }
  return m === 0 ? 0 : 1 / m;
}
