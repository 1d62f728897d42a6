import { Labels } from '../../apis/labels.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import type { Offering } from '../../cloudprovider/offering.js';
import type { HostPort } from '../pod/host-ports.js';
import { Requirement } from '../requirements/requirement.js';
import { AllowUndefinedWellKnownLabels, Requirements } from '../requirements/requirements.js';
import { addResources, type ResourceList } from '../resources/resource-list.js';
import { type ResourceSlots, ResourceVector } from '../resources/resource-vector.js';
import type { TaintLike } from '../taints/tolerations.js';
import { type DaemonPod, daemonSelects, daemonTolerates } from './daemon-overhead.js';
import { PoolLimits } from './limits.js';
import { TypeFilters } from './type-filter.js';

/** One instance type as one NodePool may launch it. */
export interface PoolType {
  /** Position in {@link Pool.types}. */
  readonly index: number;
  readonly type: InstanceType;
  /** Allocatable minus the DaemonSet overhead of this NodePool on this type: room for pods. */
  readonly free: ResourceVector;
  /** The DaemonSets' requests on such a node. */
  readonly daemonRequests: ResourceList;
  /** Capacity per limited resource (see PoolLimits), when the NodePool has limits. */
  readonly limitCapacity: readonly (bigint | undefined)[];
}

/** A NodePool prepared for one solve. */
export interface Pool {
  readonly index: number;
  readonly name: string;
  readonly nodePool: NodePool;
  readonly weight: number;
  /** NodePool requirements, template labels and karpenter.sh/nodepool. */
  readonly requirements: Requirements;
  readonly taints: readonly TaintLike[];
  /** Every type the provider listed (for reasons). */
  readonly allTypes: readonly InstanceType[];
  /** Types compatible with the NodePool that have an available compatible offering, biggest first. */
  readonly types: readonly PoolType[];
  /** Host ports the NodePool's DaemonSets take on every node. */
  readonly daemonHostPorts: readonly HostPort[];
  /** Names of the DaemonSets counted on at least one type. */
  readonly daemonNames: readonly string[];
  readonly limits: PoolLimits | undefined;
  /** Per-solve caches of type filters and prices. */
  readonly filters: TypeFilters;
  /**
   * True when every type's room dominates the next one's in every resource, so the types with
   * room for some requests are always a prefix of {@link types} (and of any subsequence of it).
   */
  readonly chain: boolean;
}

/** Whether some available offering of the type is allowed by the requirements. */
export function hasLaunchableOffering(offerings: readonly Offering[], requirements: Requirements): boolean {
  for (let i = 0; i < offerings.length; i++) {
    const o = offerings[i]!;
    if (o.available && requirements.isCompatible(o.requirements, AllowUndefinedWellKnownLabels)) return true;
  }
  return false;
}

/** Karpenter's instance-type compatibility: every key both define intersects. */
export function typeCompatible(type: InstanceType, requirements: Requirements): boolean {
  return type.requirements.intersects(requirements);
}

/**
 * The types, in order, that are compatible with a NodePool's requirements and have an available
 * offering it allows: the only ones buildPool prepares. Depends on nothing but its arguments, so
 * solves may share it (see SolverCache).
 */
export function launchableTypes(
  types: readonly InstanceType[],
  requirements: Requirements,
): readonly InstanceType[] {
  return types.filter(
    (t) => typeCompatible(t, requirements) && hasLaunchableOffering(t.offerings, requirements),
  );
}

/** The requirements every node of the NodePool starts from. */
export function poolRequirements(nodePool: NodePool): Requirements {
  const template = nodePool.spec.template;
  const out = Requirements.fromNodeSelectorRequirements(template.spec.requirements);
  out.addAll(Requirements.fromLabels(template.metadata?.labels));
  out.add(Requirement.create(Labels.NodePool, 'In', [nodePool.metadata.name!]));
  return out;
}

function byWeightThenName(a: NodePool, b: NodePool): number {
  const wa = a.spec.weight ?? 0;
  const wb = b.spec.weight ?? 0;
  if (wa !== wb) return wb - wa;
  const na = a.metadata.name ?? '';
  const nb = b.metadata.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

/** NodePools in the order new NodeClaims try them: weight descending, then name. */
export function orderNodePools(nodePools: readonly NodePool[]): NodePool[] {
  return [...nodePools].sort(byWeightThenName);
}

/**
 * The part of a prepared NodePool that depends only on the NodePool object, its launchable types,
 * the DaemonSets and the resource slots — not on the solve's pods or usage — so solves may share
 * it (see SolverCache). Read-only once built; the filters only cache answers.
 */
export interface PoolTypes {
  readonly types: readonly PoolType[];
  readonly daemonHostPorts: readonly HostPort[];
  readonly daemonNames: readonly string[];
  readonly chain: boolean;
  readonly filters: TypeFilters;
}

/**
 * Prepares a NodePool: its requirements, taints, limits, and its launchable instance types
 * (`launchable`: launchableTypes of `types`) with the per-type DaemonSet overhead (a DaemonSet
 * counts on a type when it tolerates the NodePool's taints and its node affinity is compatible
 * with the NodePool and the type). `prepareTypes` may answer the usage-independent part from a
 * cache; it must give what poolTypes would.
 */
export function buildPool(
  index: number,
  nodePool: NodePool,
  types: readonly InstanceType[],
  daemons: readonly DaemonPod[],
  slots: ResourceSlots,
  usage: ResourceList | undefined,
  launchable: readonly InstanceType[] = launchableTypes(types, poolRequirements(nodePool)),
  prepareTypes: typeof poolTypes = poolTypes,
): Pool {
  const requirements = poolRequirements(nodePool);
  const prepared = prepareTypes(nodePool, requirements, launchable, daemons, slots);
  return {
    index,
    name: nodePool.metadata.name!,
    nodePool,
    weight: nodePool.spec.weight ?? 0,
    requirements,
    taints: nodePool.spec.template.spec.taints ?? [],
    allTypes: types,
    types: prepared.types,
    daemonHostPorts: prepared.daemonHostPorts,
    daemonNames: prepared.daemonNames,
    limits: PoolLimits.of(nodePool.spec.limits, usage),
    chain: prepared.chain,
    filters: prepared.filters,
  };
}

/** The usage-independent part of buildPool (see PoolTypes). */
export function poolTypes(
  nodePool: NodePool,
  requirements: Requirements,
  launchable: readonly InstanceType[],
  daemons: readonly DaemonPod[],
  slots: ResourceSlots,
): PoolTypes {
  const taints = nodePool.spec.template.spec.taints ?? [];
  // Only the limited resources' names matter here (a type's capacity per limited resource).
  const limits = PoolLimits.of(nodePool.spec.limits, undefined);
  // Daemons that tolerate the NodePool; each is then checked against the NodePool and every type
  // together, as a type may define labels (a GPU label, say) the NodePool does not.
  const candidates = daemons.filter((d) => daemonTolerates(d, taints));
  const overheadCache = new Map<string, { list: ResourceList; vector: ResourceVector }>();
  const counted = new Set<string>();
  const prepared: Omit<PoolType, 'index'>[] = [];
  for (const type of launchable) {
    let key = '';
    const on: DaemonPod[] = [];
    if (candidates.length > 0) {
      const combined = requirements.copy().addAll(type.requirements);
      for (const [i, d] of candidates.entries()) {
        if (d.alternatives.every((a) => a.size === 0) || daemonSelects(d, combined, true)) {
          on.push(d);
          key += `${i},`;
        }
      }
    }
    let overhead = overheadCache.get(key);
    if (overhead === undefined) {
      const list = addResources(...on.map((d) => d.requests));
      overhead = { list, vector: ResourceVector.fromList(list, slots) };
      overheadCache.set(key, overhead);
    }
    for (const d of on) counted.add(d.name);
    const free = ResourceVector.fromList(type.allocatable, slots).subInPlace(overhead.vector);
    prepared.push({
      type,
      free,
      daemonRequests: overhead.list,
      limitCapacity: limits === undefined ? [] : limits.capacityOf(type.capacity),
    });
  }
  // Biggest first, so "does any candidate still fit" usually stops at the first one.
  const cpu = slots.slot('cpu');
  const mem = slots.slot('memory');
  const order = prepared
    .map((p, i) => ({ p, i }))
    .sort((a, b) => b.p.free.cmpSlot(cpu, a.p.free) || b.p.free.cmpSlot(mem, a.p.free) || a.i - b.i);
  const types: PoolType[] = order.map(({ p }, index) => ({ ...p, index }));
  let chain = true;
  for (let i = 1; i < types.length && chain; i++) {
    const a = types[i - 1]!.free;
    const b = types[i]!.free;
    for (let slot = 0; slot < Math.max(a.length, b.length); slot++) {
      if (a.cmpSlot(slot, b) < 0) {
        chain = false;
        break;
      }
    }
  }
  return {
    types,
    daemonHostPorts: candidates.filter((d) => counted.has(d.name)).flatMap((d) => d.hostPorts),
    daemonNames: candidates.filter((d) => counted.has(d.name)).map((d) => d.name),
    chain,
    filters: new TypeFilters(types).sized(types.length),
  };
}
