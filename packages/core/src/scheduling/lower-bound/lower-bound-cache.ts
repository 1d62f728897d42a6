import type { InstanceType } from '../../cloudprovider/instance-type.js';
import type { ResourceList } from '../resources/resource-list.js';
import { explainTotals, totalRequests } from './lower-bound.js';

/** Distinct request totals kept per type list before starting over: a bound on the memory. */
const MaxTotals = 4096;

/**
 * lowerBoundPerHour for a caller that asks again and again over one catalog (a simulation samples
 * its fleet every simulated minute, and the requests only change when the workload does): each
 * answer is kept per type list (by identity) and per total requested, which is all it depends on.
 */
export class LowerBoundCache {
  readonly #byTypes = new WeakMap<readonly InstanceType[], Map<string, number>>();

  perHour(podRequests: Iterable<ResourceList>, instanceTypes: readonly InstanceType[]): number {
    const totals = totalRequests(podRequests);
    const key = [...totals]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([r, v]) => `${r}=${v}`)
      .join(',');
    let known = this.#byTypes.get(instanceTypes);
    if (known === undefined) {
      known = new Map();
      this.#byTypes.set(instanceTypes, known);
    }
    const hit = known.get(key);
    if (hit !== undefined) return hit;
    const perHour = explainTotals(totals, instanceTypes).perHour;
    if (known.size >= MaxTotals) known.clear();
    known.set(key, perHour);
    return perHour;
  }
}
