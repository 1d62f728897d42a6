import type { NodePool } from '../../../apis/v1/nodepool.js';
import type { InstanceType } from '../../../cloudprovider/instance-type.js';
import { isPodTerminal } from '../../../kube/pod.js';
import { podRequests } from '../../../scheduling/pod/requests.js';
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
  #rooms: readonly Room[] | undefined;
  readonly #launchable = new Map<NodePool, LaunchableTypes>();

  constructor(snapshot: DisruptionSnapshot) {
    this.#snapshot = snapshot;
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
      for (const pod of c.pods) if (!isPodTerminal(pod)) used = addResources(used, podRequests(pod));
      const free = subtractResources(capacityAllocatable(c), used);
      rooms.push({ name: c.name, free, cpu: free.get('cpu') ?? Quantity.zero() });
    }
    rooms.sort((a, b) => b.cpu.cmp(a.cpu));
    this.#rooms = rooms;
    return rooms;
  }
}
