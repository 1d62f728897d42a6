import type { Pod } from '../../../apis/kubernetes/pod.js';
import type { NodePool } from '../../../apis/v1/nodepool.js';
import type { InstanceType } from '../../../cloudprovider/instance-type.js';
import { isPodTerminal } from '../../../kube/pod.js';
import { PodRequestsMemo } from '../../../scheduling/pod/requests-memo.js';
import { Quantity } from '../../../scheduling/quantity/quantity.js';
import type { Requirements } from '../../../scheduling/requirements/requirements.js';
import { fits } from '../../../scheduling/resources/fits.js';
import {
  addResources,
  type ResourceList,
  subtractResources,
} from '../../../scheduling/resources/resource-list.js';
import { capacityAllocatable } from '../../../scheduling/solver/existing.js';
import { launchableTypes, poolRequirements } from '../../../scheduling/solver/pools.js';
import { isDeletingCapacity } from '../candidates/managed-node.js';
import type { DisruptionSnapshot } from '../snapshot.js';

/** The types a NodePool can launch, and the requirements its offerings must meet. */
export interface LaunchableTypes {
  readonly types: readonly InstanceType[];
  readonly requirements: Requirements;
}

interface Room {
  readonly name: string;
  readonly free: ResourceList;
  readonly cpu: Quantity;
  /** False when some free quantity is negative: `fits` then admits nothing here. */
  readonly usable: boolean;
}

/** Pods that cannot all go to the other nodes: together they need more of a resource than those nodes have free. */
export interface TogetherShortfall {
  readonly resource: string;
  /** What the pods request of it, summed. */
  readonly needed: Quantity;
  /** What the nodes with enough CPU left for the smallest of the pods have free of it, summed. */
  readonly free: Quantity;
}

/**
 * The room each initialized node of a pass has left by requests alone: what it can hold minus
 * the requests of the pods bound there that have not finished. It never says less than the
 * solver would find (the solver also reserves room for DaemonSet pods still to come, and checks
 * every constraint besides), so "fits nowhere here" is a fact the solver would agree with. Nodes
 * not initialized yet are left out: a consolidation whose pod would land on one fails anyway.
 *
 * Sorted by free CPU, largest first, so a question about one pod reads only the pieces with
 * enough CPU and stops at the first that has room: a consolidation pass asks it for every pod of
 * every candidate. Built on first use, once per pass; so are the types each NodePool can launch.
 */
export class NodeRoom {
  readonly #snapshot: DisruptionSnapshot;
  readonly #requests: PodRequestsMemo;
  #rooms: readonly Room[] | undefined;
  /** Position of each room in the sorted list. */
  readonly #index = new Map<string, number>();
  /** Per resource, free nanos of the usable rooms summed over each prefix of the sorted list. */
  readonly #prefix = new Map<string, readonly bigint[]>();
  readonly #launchable = new Map<NodePool, LaunchableTypes>();
  readonly #screened = new Map<string, string | undefined>();

  /** `requests` defaults to the snapshot's solver cache's, which outlives the pass. */
  constructor(snapshot: DisruptionSnapshot, requests?: PodRequestsMemo) {
    this.#snapshot = snapshot;
    this.#requests = requests ?? snapshot.solverCache?.requests ?? new PodRequestsMemo();
  }

  /**
   * A screen's verdict (see refusedUnsimulated), worked out once per key for this room: the
   * screens read only the room, the snapshot and the candidates, which one snapshot fixes, so a
   * pass over a snapshot kept from the last pass finds every verdict that pass reached.
   */
  screened(key: string, screen: () => string | undefined): string | undefined {
    if (this.#screened.has(key)) return this.#screened.get(key);
    const verdict = screen();
    this.#screened.set(key, verdict);
    return verdict;
  }

  /** The pod's requests (podRequests), each pod's parsed once. */
  requestsOf(pod: Pod): ResourceList {
    return this.#requests.of(pod);
  }

  /**
   * Whether an initialized node other than those named in `excluded`, and not being deleted,
   * has room for `requests`.
   */
  fitsElsewhere(requests: ResourceList, excluded: ReadonlySet<string>): boolean {
    const cpu = requests.get('cpu') ?? Quantity.zero();
    for (const room of this.#all()) {
      if (room.cpu.cmp(cpu) < 0) return false;
      if (excluded.has(room.name)) continue;
      if (fits(requests, room.free)) return true;
    }
    return false;
  }

  /**
   * Why the pods could not all be placed at once on initialized nodes other than those named in
   * `excluded`, by requests alone, or undefined when they might be. Sound, as `fitsElsewhere`: it
   * sums a resource over every node with at least the smallest pod's CPU free, so it only ever
   * says no when no placement exists. Each pod fitting somewhere on its own does not make them fit
   * together: two pods of 1.5 CPU and one node with 2.4 CPU left is the usual case on full nodes.
   */
  togetherShortfall(
    requests: readonly ResourceList[],
    excluded: ReadonlySet<string>,
  ): TogetherShortfall | undefined {
    if (requests.length < 2) return undefined;
    const rooms = this.#all();
    let minCpu: Quantity | undefined;
    const needed = new Map<string, bigint>();
    for (const r of requests) {
      const cpu = r.get('cpu') ?? Quantity.zero();
      if (minCpu === undefined || cpu.cmp(minCpu) < 0) minCpu = cpu;
      for (const [name, q] of r) needed.set(name, (needed.get(name) ?? 0n) + q.nanos);
    }
    const reach = roomsWithCpu(rooms, minCpu ?? Quantity.zero());
    for (const [resource, need] of needed) {
      if (need <= 0n) continue;
      let free = this.#prefixOf(resource)[reach] ?? 0n;
      for (const name of excluded) {
        const i = this.#index.get(name);
        if (i !== undefined && i < reach) free -= freeNanos(rooms[i] as Room, resource);
      }
      if (free < need) return { resource, needed: Quantity.fromNanos(need), free: Quantity.fromNanos(free) };
    }
    return undefined;
  }

  /**
   * At most how many pods, each needing at least `smallest` of every resource, the initialized
   * nodes other than those named in `excluded` could take between them, by requests alone. A
   * bound, not a packing: per node the least over resources of free / smallest, summed. Sound as
   * `togetherShortfall` is: a node never takes more such pods than this.
   */
  places(smallest: ResourceList, excluded: ReadonlySet<string>): number {
    const cpu = smallest.get('cpu') ?? Quantity.zero();
    let total = 0;
    for (const room of this.#all()) {
      // Sorted by free CPU: past the first room without the CPU for one pod, none has it.
      if (room.cpu.cmp(cpu) < 0) break;
      if (!room.usable || excluded.has(room.name)) continue;
      total += placesIn(room.free, smallest);
      if (!Number.isFinite(total)) return total;
    }
    return total;
  }

  /**
   * The provider's types for the NodePool that its requirements admit and that have an offering
   * it could launch, with those requirements: what the solver may choose a new NodeClaim's type
   * from (it narrows them further, never widens them).
   */
  launchable(pool: NodePool): LaunchableTypes {
    let found = this.#launchable.get(pool);
    if (found === undefined) {
      const requirements = poolRequirements(pool);
      const raw = this.#snapshot.instanceTypes.get(pool.metadata.name ?? '') ?? [];
      found = { types: launchableTypes(raw, requirements), requirements };
      this.#launchable.set(pool, found);
    }
    return found;
  }

  #all(): readonly Room[] {
    if (this.#rooms !== undefined) return this.#rooms;
    const snapshot = this.#snapshot;
    const rooms: Room[] = [];
    for (const c of snapshot.capacity) {
      // Where the solver puts no pod; and where a consolidation may not move one (a pod sent to a
      // node not initialized yet fails the simulation).
      if (!c.initialized || isDeletingCapacity(c, snapshot.markedForDeletion)) continue;
      let used: ResourceList = new Map();
      for (const pod of c.pods) if (!isPodTerminal(pod)) used = addResources(used, this.#requests.of(pod));
      const free = subtractResources(capacityAllocatable(c), used);
      const usable = [...free.values()].every((q) => q.nanos >= 0n);
      rooms.push({ name: c.name, free, cpu: free.get('cpu') ?? Quantity.zero(), usable });
    }
    rooms.sort((a, b) => b.cpu.cmp(a.cpu));
    for (const [i, room] of rooms.entries()) this.#index.set(room.name, i);
    this.#rooms = rooms;
    return rooms;
  }

  #prefixOf(resource: string): readonly bigint[] {
    let sums = this.#prefix.get(resource);
    if (sums === undefined) {
      const rooms = this.#all();
      const built = [0n];
      let total = 0n;
      for (const room of rooms) {
        total += freeNanos(room, resource);
        built.push(total);
      }
      sums = built;
      this.#prefix.set(resource, sums);
    }
    return sums;
  }
}

/**
 * How many pods each needing at least `smallest` fit in `free` by requests: the least over the
 * resources they need of free / need, rounded down. Infinite when they need nothing.
 */
export function placesIn(free: ResourceList, smallest: ResourceList): number {
  let least = Number.POSITIVE_INFINITY;
  for (const [name, need] of smallest) {
    if (need.nanos <= 0n) continue;
    const have = free.get(name)?.nanos ?? 0n;
    const n = have <= 0n ? 0 : Number(have / need.nanos);
    if (n < least) least = n;
  }
  return least;
}

/** A room's free nanos of a resource as far as `fits` could use them: none when it is unusable. */
function freeNanos(room: Room, resource: string): bigint {
  if (!room.usable) return 0n;
  return room.free.get(resource)?.nanos ?? 0n;
}

/** How many rooms, from the front of the list sorted by free CPU, have at least `cpu` free. */
function roomsWithCpu(rooms: readonly Room[], cpu: Quantity): number {
  let lo = 0;
  let hi = rooms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((rooms[mid] as Room).cpu.cmp(cpu) >= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
