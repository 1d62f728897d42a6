import type { Pod } from '../../apis/kubernetes/pod.js';
import { Labels } from '../../apis/labels.js';
import { truncateInstanceTypes } from '../../cloudprovider/instance-type.js';
import { cheapestLaunchPrice } from '../../cloudprovider/offering.js';
import { Requirement } from '../requirements/requirement.js';
import { addResources } from '../resources/resource-list.js';
import { explainUnschedulable } from './explain.js';
import type { PoolType } from './pools.js';
import type { Scheduler } from './scheduler.js';
import type { Claim } from './target.js';
import type { ExistingPlacement, NewClaim, SolverResult, UnschedulablePod } from './types.js';

/** A claim as it will be created, or why its pods cannot have it after all. */
function finalizeClaim(s: Scheduler, c: Claim): NewClaim | { reason: string } {
  const pool = c.pool;
  const r = c.requirements;
  const launch = pool.filters.launchInfo(r);
  const fits = new Uint8Array(pool.types.length);
  for (let i = 0; i < c.size; i++) {
    const t = pool.types[c.candidates[i]!]!;
    if (c.requests.fits(t.free)) fits[t.index] = 1;
  }
  // orderByPrice's order (cheapest launchable offering, then name), computed once per constraint set.
  const fitting: PoolType[] = [];
  for (const i of launch.order(pool.types)) if (fits[i] === 1) fitting.push(pool.types[i]!);
  let kept: PoolType[] = fitting;
  const max = s.options.maxInstanceTypes;
  if (fitting.length > max || r.hasMinValues()) {
    const byType = new Map(fitting.map((t) => [t.type, t]));
    const types = fitting.map((t) => t.type);
    const truncated = truncateInstanceTypes(types, r, max);
    if (truncated.ok) kept = truncated.types.map((t) => byType.get(t)!);
    else if (s.options.minValuesPolicy === 'BestEffort') kept = fitting.slice(0, max);
    else return { reason: `NodePool ${pool.name}: ${truncated.reason}` };
  }
  if (kept.length === 0) return { reason: `NodePool ${pool.name}: no instance type is left for the claim` };
  const requirements = r.copy();
  requirements.add(
    Requirement.create(
      Labels.InstanceType,
      'In',
      kept.map((t) => t.type.name),
    ),
  );
  const capacityTypes = new Set<string>();
  for (const t of kept) for (const ct of launch.capacityTypes(t)) capacityTypes.add(ct);
  requirements.add(Requirement.create(Labels.CapacityType, 'In', [...capacityTypes].sort()));
  const cheapest = kept[0]!;
  return {
    nodePool: pool.name,
    instanceTypes: kept.map((t) => t.type),
    requirements,
    pods: c.pods.slice(),
    requests: addResources(c.requests.toList(s.slots), cheapest.daemonRequests),
    price: cheapestLaunchPrice(cheapest.type.offerings, requirements),
  };
}

/** Reads the solve's outcome back into the API shape. */
export function buildResult(s: Scheduler): SolverResult {
  const newClaims: NewClaim[] = [];
  const dropped = new Map<Pod, string>();
  for (const c of s.claims) {
    const out = finalizeClaim(s, c);
    if ('reason' in out) for (const p of c.pods) dropped.set(p, out.reason);
    else newClaims.push(out);
  }
  const existing: ExistingPlacement[] = s.existing
    .filter((e) => e.pods.length > 0)
    .map((e) => ({ name: e.name, pods: e.pods.slice() }));
  const unschedulable: UnschedulablePod[] = [];
  for (const entry of s.entries) {
    const reason =
      entry.error ??
      dropped.get(entry.pod) ??
      (entry.placed ? undefined : explainUnschedulable(s, entry.variant!));
    if (reason !== undefined) unschedulable.push({ pod: entry.pod, reason });
  }
  return { newClaims, existing, unschedulable };
}
