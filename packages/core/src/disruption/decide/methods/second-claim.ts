import { Quantity } from '../../../scheduling/quantity/quantity.js';
import type { ResourceList } from '../../../scheduling/resources/resource-list.js';
import type { Candidate } from '../candidates/evaluate.js';
import { canProvision } from '../simulation/simulate-rescheduling.js';
import type { DisruptionSnapshot } from '../snapshot.js';
import { type NodeRoom, placesIn } from './node-room.js';

/**
 * Why several candidates' pods cannot go to the other initialized nodes plus one new NodeClaim,
 * known without simulating it, or undefined when only the simulation can tell. A consolidation
 * launches at most one NodeClaim, so the simulation would then end without a command: a pod left
 * over, or a second NodeClaim. Counted, not packed: every pod needs at least the least any of
 * them requests of each resource, the other nodes have room for at most `NodeRoom.places` such
 * pods, and one new node for at most what the largest allocatable of any type a provisioning
 * NodePool can launch holds (before DaemonSet overhead, which only takes room away). Pending
 * pods, which would take room first, are left out, so it never turns away a set the simulation
 * would take. On 500 nodes of two pods each, multi-node consolidation's binary search simulated
 * sets of dozens of nodes whose pods each fit elsewhere alone, only to find this out.
 */
export function secondClaimNeeded(
  candidates: readonly Candidate[],
  snapshot: DisruptionSnapshot,
  room: NodeRoom,
): string | undefined {
  if (candidates.length < 2) return undefined;
  const requests: ResourceList[] = [];
  for (const c of candidates) for (const pod of c.node.reschedulable) requests.push(room.requestsOf(pod));
  const smallest = leastOfEach(requests);
  if (smallest === undefined) return undefined;
  const leaving = new Set(candidates.map((c) => c.name));
  const elsewhere = room.places(smallest, leaving);
  if (elsewhere >= requests.length) return undefined;
  let onNew = 0;
  for (const pool of snapshot.nodePools) {
    if (!canProvision(pool)) continue;
    for (const type of room.launchable(pool).types)
      onNew = Math.max(onNew, placesIn(type.allocatable, smallest));
  }
  if (elsewhere + onNew >= requests.length) return undefined;
  return `its ${requests.length} pods need more than one new NodeClaim: the other initialized nodes have room for at most ${elsewhere} of them and one new node for at most ${onNew}`;
}

/** Per resource, the least any of the lists asks (a list without it asks none); undefined for no lists. */
function leastOfEach(lists: readonly ResourceList[]): ResourceList | undefined {
  const [first, ...rest] = lists;
  if (first === undefined) return undefined;
  const least = new Map<string, Quantity>(first);
  for (const list of rest) {
    for (const [name, q] of least) {
      const other = list.get(name) ?? Quantity.zero();
      if (other.cmp(q) < 0) least.set(name, other);
    }
  }
  return least;
}
