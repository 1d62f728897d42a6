import type { DaemonSet } from '../../apis/kubernetes/daemon-set.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import type { Due, Steps } from '../../clock/slices.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import { PodRequestsMemo } from '../pod/requests-memo.js';
import type { ResourceSlots } from '../resources/resource-vector.js';
import { GroupScanMemo } from '../topology/group-scan.js';
import type { NodePoolDomains } from '../topology/topology.js';
import type { DaemonPod } from './daemon-overhead.js';
import { existingOrder, type PreparedExisting, prepareExisting } from './existing.js';
import { nodePoolDomains, type PoolDomainValues, poolDomainValues } from './node-pool-domains.js';
import { PodFactsMemo } from './pod-facts-memo.js';
import { launchableTypes, type Pool, type PoolTypes, poolRequirements, poolTypes } from './pools.js';
import type { ExistingCapacity } from './types.js';
import type { WellKnown } from './well-known.js';

const NoTypes: readonly InstanceType[] = Object.freeze([]);

/**
 * What consecutive solves may share because it depends only on inputs that rarely change: a
 * NodePool's instance types with the well-known labels applied, those of them it can launch, and
 * the topology domains it can launch into; and each piece of existing capacity as the solver
 * prepares it (a disruption pass solves once per candidate over the same capacity). A caller that solves repeatedly (the provisioner, every disruption
 * pass and each of its consolidation candidates) keeps one and passes it as `SolverInput.cache`.
 *
 * Entries are keyed by object identity — the NodePool object, the instance-type array the
 * provider returned, the well-known label set — so the contract is that callers never mutate
 * those in place (ClusterState replaces a NodePool on every change; providers return a new array
 * when offerings change). Entries go with their keys (weak maps). Results are the same with or
 * without a cache.
 */
export class SolverCache {
  /** Each pod's requests, for this cache's users and the disruption pass around its solves. */
  readonly requests = new PodRequestsMemo();
  /** Each pod's creation time and (volumes imposing nothing) signature, for classifying it. */
  readonly podFacts = new PodFactsMemo();
  /** Topology groups' scans of the bound pods, for the next solve over nearly the same nodes. */
  readonly groupScans = new GroupScanMemo();
  readonly #requestsOf = (pod: Pod) => this.requests.of(pod);
  readonly #types = new WeakMap<
    readonly InstanceType[],
    { readonly labels: ReadonlySet<string> | undefined; readonly types: readonly InstanceType[] }
  >();
  readonly #launchable = new WeakMap<
    NodePool,
    { readonly types: readonly InstanceType[]; readonly launchable: readonly InstanceType[] }
  >();
  readonly #poolTypes = new WeakMap<
    NodePool,
    {
      readonly launchable: readonly InstanceType[];
      readonly daemonSets: readonly DaemonSet[];
      readonly slots: string;
      readonly prepared: PoolTypes;
    }
  >();
  readonly #existing = new WeakMap<
    ExistingCapacity,
    { readonly daemonSets: readonly DaemonSet[]; readonly slots: string; readonly prepared: PreparedExisting }
  >();
  readonly #domains = new WeakMap<
    NodePool,
    { readonly types: readonly InstanceType[]; readonly values: PoolDomainValues }
  >();
  readonly #marked = new WeakMap<
    ExistingCapacity,
    { readonly stays: (pod: Pod) => boolean; readonly marked: ExistingCapacity }
  >();
  /** The last solve's capacity as given, prepared (in that order), and the order pods tried it in. */
  #lastExisting:
    | {
        readonly inputs: readonly ExistingCapacity[];
        readonly daemonSets: readonly DaemonSet[];
        readonly slots: string;
        readonly prepared: readonly PreparedExisting[];
        readonly order: readonly number[];
      }
    | undefined;
  /** The last solve's NodePools (each with its types) and the domains built from them. */
  #lastDomains:
    | {
        readonly pools: readonly (readonly [NodePool, readonly InstanceType[]])[];
        readonly domains: NodePoolDomains;
      }
    | undefined;

  /** The provider's types for a NodePool with `wellKnown` applied (see WellKnown.normalize). */
  normalizedTypes(
    raw: readonly InstanceType[] | undefined,
    labels: ReadonlySet<string> | undefined,
    wellKnown: WellKnown,
  ): readonly InstanceType[] {
    if (raw === undefined) return NoTypes;
    const hit = this.#types.get(raw);
    if (hit !== undefined && hit.labels === labels) return hit.types;
    const types = raw.map((t) => wellKnown.normalize(t));
    this.#types.set(raw, { labels, types });
    return types;
  }

  /** launchableTypes of the NodePool's (normalized) types, reused while both are the same objects. */
  launchableTypes(nodePool: NodePool, types: readonly InstanceType[]): readonly InstanceType[] {
    const hit = this.#launchable.get(nodePool);
    if (hit !== undefined && hit.types === types) return hit.launchable;
    const launchable = launchableTypes(types, poolRequirements(nodePool));
    this.#launchable.set(nodePool, { types, launchable });
    return launchable;
  }

  /**
   * poolTypes of a NodePool (its prepared types, type filters and DaemonSet overhead), reused
   * while the NodePool object, its launchable types, the DaemonSets array and the resource slots
   * registered so far are the same; kept only when it registered no new slot (as prepareExisting).
   */
  poolTypes(daemonSets: readonly DaemonSet[]): typeof poolTypes {
    return (nodePool, requirements, launchable, daemons, slots) => {
      const key = slots.names().join('\n');
      const hit = this.#poolTypes.get(nodePool);
      if (
        hit !== undefined &&
        hit.launchable === launchable &&
        hit.daemonSets === daemonSets &&
        hit.slots === key
      )
        return hit.prepared;
      const size = slots.size;
      const prepared = poolTypes(nodePool, requirements, launchable, daemons, slots);
      if (slots.size === size)
        this.#poolTypes.set(nodePool, { launchable, daemonSets, slots: key, prepared });
      return prepared;
    };
  }

  /**
   * prepareExisting for one solve's capacity, each piece reused while the capacity object, the
   * DaemonSets array and the resource slots registered so far are the same. Only a preparation
   * that registered no new resource slot is kept: its vectors then mean the same in any solve
   * whose slots start out alike. The slots' names are joined once per solve and again only when
   * a piece registers a new slot, not once per piece.
   */
  existingPreparer(
    daemonSets: readonly DaemonSet[],
    daemons: readonly DaemonPod[],
    slots: ResourceSlots,
  ): (c: ExistingCapacity) => PreparedExisting {
    let size = slots.size;
    let key = slots.names().join('\n');
    return (c) => {
      if (slots.size !== size) {
        size = slots.size;
        key = slots.names().join('\n');
      }
      const hit = this.#existing.get(c);
      if (hit !== undefined && hit.daemonSets === daemonSets && hit.slots === key) return hit.prepared;
      const prepared = prepareExisting(c, daemons, slots, this.#requestsOf);
      if (slots.size === size) this.#existing.set(c, { daemonSets, slots: key, prepared });
      return prepared;
    };
  }

  /**
   * A solve's existing capacity prepared (see existingPreparer) and in the order pods try it
   * (existingOrder), as stoppable work: it may stop between two pieces. Consecutive solves of a
   * disruption pass differ in a piece or two (the candidates each takes away), so a piece that is
   * the same object at the same position as in the last solve is taken from it without a lookup,
   * and the last solve's order is kept when every piece that differs has the name and
   * initialization of the one it replaces. The result is what preparing and sorting afresh gives.
   */
  *preparedExisting(
    existing: readonly ExistingCapacity[],
    daemonSets: readonly DaemonSet[],
    daemons: readonly DaemonPod[],
    slots: ResourceSlots,
    due?: Due,
  ): Steps<PreparedExisting[]> {
    const prepare = this.existingPreparer(daemonSets, daemons, slots);
    const size = slots.size;
    const key = slots.names().join('\n');
    const last = this.#lastExisting;
    const reuse =
      last !== undefined &&
      last.daemonSets === daemonSets &&
      last.slots === key &&
      last.inputs.length === existing.length
        ? last
        : undefined;
    let sameOrder = reuse !== undefined;
    const prepared: PreparedExisting[] = [];
    for (const [i, c] of existing.entries()) {
      if (due?.() === true) yield;
      // Only while no piece of this solve has registered a new slot: the last solve's vectors
      // were made with the slots as they were at its start.
      if (reuse !== undefined && reuse.inputs[i] === c && slots.size === size) {
        prepared.push(reuse.prepared[i]!);
        continue;
      }
      prepared.push(prepare(c));
      const was = reuse?.inputs[i];
      if (was !== undefined && (was.name !== c.name || was.initialized !== c.initialized)) sameOrder = false;
    }
    const order = reuse !== undefined && sameOrder ? reuse.order : existingOrder(prepared);
    this.#lastExisting =
      slots.size === size ? { inputs: [...existing], daemonSets, slots: key, prepared, order } : undefined;
    return order.map((i) => prepared[i]!);
  }

  /** The pool's domain values (see poolDomainValues), reused while its NodePool and types are. */
  domainValues(pool: Pool): PoolDomainValues {
    const hit = this.#domains.get(pool.nodePool);
    if (hit !== undefined && hit.types === pool.allTypes) return hit.values;
    const values = poolDomainValues(pool.requirements, pool.allTypes);
    this.#domains.set(pool.nodePool, { types: pool.allTypes, values });
    return values;
  }

  /**
   * nodePoolDomains of a solve's pools, reused while the NodePools and their types are the same
   * objects in the same order: consecutive solves (a disruption pass's candidates) nearly always
   * ask for the same, and building it walks every type's requirements.
   */
  nodePoolDomains(pools: readonly Pool[]): NodePoolDomains {
    const last = this.#lastDomains;
    if (
      last !== undefined &&
      last.pools.length === pools.length &&
      pools.every((p, i) => last.pools[i]![0] === p.nodePool && last.pools[i]![1] === p.allTypes)
    )
      return last.domains;
    const domains = nodePoolDomains(pools, (pool) => this.domainValues(pool));
    this.#lastDomains = { pools: pools.map((p) => [p.nodePool, p.allTypes] as const), domains };
    return domains;
  }

  /**
   * `c` marked for deletion, keeping only the pods `stays` accepts: how a disruption simulation
   * hands the solver a node it takes away. The same object while `c` and `stays` are, so the
   * many solves of one pass (each candidate, strict and relaxed) find its preparation cached.
   */
  marked(c: ExistingCapacity, stays: (pod: Pod) => boolean): ExistingCapacity {
    const hit = this.#marked.get(c);
    if (hit !== undefined && hit.stays === stays) return hit.marked;
    const marked: ExistingCapacity = { ...c, pods: c.pods.filter(stays), markedForDeletion: true };
    this.#marked.set(c, { stays, marked });
    return marked;
  }
}
