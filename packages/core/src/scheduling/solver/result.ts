import type { Pod } from '../../apis/kubernetes/pod.js';
import { Labels } from '../../apis/labels.js';
import type { Due, Steps } from '../../clock/slices.js';
import { type InstanceType, truncateInstanceTypes } from '../../cloudprovider/instance-type.js';
import { cheapestLaunchPrice } from '../../cloudprovider/offering.js';
import { Requirement } from '../requirements/requirement.js';
import { addResources } from '../resources/resource-list.js';
import { explainUnschedulable } from './explain.js';
import type { Pool, PoolType } from './pools.js';
import type { Scheduler } from './scheduler.js';
import type { Claim } from './target.js';
import type { LaunchInfo } from './type-filter.js';
import {
  DeadlineExceededReason,
  type ExistingPlacement,
  type NewClaim,
  type SolverResult,
  type UnschedulablePod,
} from './types.js';

/** Per NodePool: scratch marks and the claim type lists already built, shared by equal claims. */
class Finalizer {
  readonly #marks: Int32Array;
  #stamp = 0;
  /** Per offering constraint set (capacity types depend on it), per kept list. */
  readonly #lists = new Map<LaunchInfo, Map<string, { indices: Int32Array; kept: KeptTypes }>>();

  constructor(size: number) {
    this.#marks = new Int32Array(size);
  }

  /** The claim's types with room for its pods, cheapest first, as indices; undefined if none. */
  fitting(pool: Pool, c: Claim, order: Int32Array): number[] {
    const stamp = ++this.#stamp;
    const marks = this.#marks;
    const cands = c.candidates;
    if (pool.chain) {
      // Types dominate each other in order, so the ones with room are a prefix of the candidates.
      let lo = 0;
      let hi = c.size;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (c.requests.fits(pool.types[cands[mid]!]!.free)) lo = mid + 1;
        else hi = mid;
      }
      for (let i = 0; i < lo; i++) marks[cands[i]!] = stamp;
    } else {
      for (let i = 0; i < c.size; i++)
        if (c.requests.fits(pool.types[cands[i]!]!.free)) marks[cands[i]!] = stamp;
    }
    const out: number[] = [];
    for (let i = 0; i < order.length; i++) if (marks[order[i]!] === stamp) out.push(order[i]!);
    return out;
  }

  /** The output pieces for a list of kept types, built once per distinct list. */
  kept(pool: Pool, launch: LaunchInfo, indices: readonly number[]): KeptTypes {
    let h = 2166136261;
    for (const i of indices) h = Math.imul(h ^ i, 16777619);
    const key = `${indices.length}:${h >>> 0}`;
    let lists = this.#lists.get(launch);
    if (lists === undefined) {
      lists = new Map();
      this.#lists.set(launch, lists);
    }
    const hit = lists.get(key);
    if (
      hit !== undefined &&
      hit.indices.length === indices.length &&
      hit.indices.every((x, j) => x === indices[j])
    ) {
      return hit.kept;
    }
    const types = indices.map((i) => pool.types[i]!);
    const capacityTypes = new Set<string>();
    for (const t of types) for (const ct of launch.capacityTypes(t)) capacityTypes.add(ct);
    const kept: KeptTypes = {
      cheapest: types[0]!,
      types: types.map((t) => t.type),
      instanceTypes: Requirement.create(
        Labels.InstanceType,
        'In',
        types.map((t) => t.type.name),
      ),
      capacityTypes: Requirement.create(Labels.CapacityType, 'In', [...capacityTypes].sort()),
    };
    if (hit === undefined) lists.set(key, { indices: Int32Array.from(indices), kept });
    return kept;
  }
}

/** What a claim's kept types contribute to its output. */
interface KeptTypes {
  readonly cheapest: PoolType;
  readonly types: readonly InstanceType[];
  readonly instanceTypes: Requirement;
  readonly capacityTypes: Requirement;
}

/** A claim as it will be created, or why its pods cannot have it after all. */
function finalizeClaim(s: Scheduler, c: Claim, f: Finalizer): NewClaim | { reason: string } {
  const pool = c.pool;
  const r = c.requirements;
  const launch = pool.filters.launchInfo(r);
  let indices = f.fitting(pool, c, launch.order(pool.types));
  const max = s.options.maxInstanceTypes;
  if (r.hasMinValues()) {
    // The shared helper, so minValues failures read as everywhere else.
    const byType = new Map(indices.map((i) => [pool.types[i]!.type, i]));
    const types = indices.map((i) => pool.types[i]!.type);
    const truncated = truncateInstanceTypes(types, r, max);
    if (truncated.ok) indices = truncated.types.map((t) => byType.get(t)!);
    else if (s.options.minValuesPolicy === 'BestEffort') indices = indices.slice(0, max);
    else return { reason: `NodePool ${pool.name}: ${truncated.reason}` };
  } else if (indices.length > max) {
    // Already in orderByPrice's order: truncation is the cheapest prefix.
    indices = indices.slice(0, max);
  }
  if (indices.length === 0)
    return { reason: `NodePool ${pool.name}: no instance type is left for the claim` };
  const kept = f.kept(pool, launch, indices);
  const requirements = r.copy().add(kept.instanceTypes, kept.capacityTypes);
  return {
    nodePool: pool.name,
    instanceTypes: kept.types,
    requirements,
    pods: c.pods.slice(),
    requests: addResources(c.requests.toList(s.slots), kept.cheapest.daemonRequests),
    price: cheapestLaunchPrice(kept.cheapest.type.offerings, requirements),
  };
}

/**
 * Reads the solve's outcome back into the API shape, as stoppable work (see `Steps`): it may
 * stop between two claims or two unschedulable pods, the parts that grow with the solve.
 */
export function* resultSteps(s: Scheduler, due?: Due): Steps<SolverResult> {
  const newClaims: NewClaim[] = [];
  const dropped = new Map<Pod, string>();
  const finalizers = new Map<Pool, Finalizer>();
  for (const c of s.claims) {
    if (due?.() === true) yield;
    let f = finalizers.get(c.pool);
    if (f === undefined) {
      f = new Finalizer(c.pool.types.length);
      finalizers.set(c.pool, f);
    }
    const out = finalizeClaim(s, c, f);
    if ('reason' in out) for (const p of c.pods) dropped.set(p, out.reason);
    else newClaims.push(out);
  }
  const existing: ExistingPlacement[] = s.existing
    .filter((e) => e.pods.length > 0)
    .map((e) => ({ name: e.name, pods: e.pods.slice() }));
  const unschedulable: UnschedulablePod[] = [];
  for (const entry of s.entries) {
    if (due?.() === true) yield;
    const reason =
      entry.error ??
      dropped.get(entry.pod) ??
      (entry.placed
        ? undefined
        : s.timedOut.has(entry.index)
          ? DeadlineExceededReason
          : explainUnschedulable(s, entry.variant!));
    if (reason !== undefined) unschedulable.push({ pod: entry.pod, reason });
  }
  const noCompatibleTypes = s.pools.filter((p) => p.types.length === 0).map((p) => p.name);
  return {
    newClaims,
    existing,
    unschedulable,
    ...(noCompatibleTypes.length === 0 ? {} : { noCompatibleTypes }),
  };
}
