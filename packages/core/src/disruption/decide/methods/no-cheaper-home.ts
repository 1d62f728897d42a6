import { CapacityTypes } from '../../../apis/labels.js';
import { isOfferingCompatible } from '../../../cloudprovider/offering.js';
import { podKey } from '../../../scheduling/pod/identity.js';
import { fits } from '../../../scheduling/resources/fits.js';
import type { ResourceList } from '../../../scheduling/resources/resource-list.js';
import type { Candidate } from '../candidates/evaluate.js';
import { canProvision } from '../simulation/simulate-rescheduling.js';
import type { DisruptionSnapshot } from '../snapshot.js';
import { formatPrice } from './method.js';
import type { NodeRoom } from './node-room.js';

/** Spot-to-spot replacement of one node needs this many cheaper spot types (upstream). */
export const MinSpotToSpotTypes = 15;

/**
 * Why consolidating the candidates cannot give a command, known without simulating it, or
 * undefined when only the simulation can tell. Sound, not a guess: a reschedulable pod of theirs
 * that fits on no other initialized node by its requests alone lands on a node not initialized
 * yet (the simulation fails), on nothing (it fails), or on a new NodeClaim, so there is a command
 * only if some instance type that can hold that pod alone is cheaper than the candidates by the
 * rules consolidation prices a replacement with. Pods that each fit somewhere but cannot all fit
 * there together are the same case with any one of them as that pod. The rules:
 * - candidates all on spot, replaced on spot: spot-to-spot enabled, and a spot offering cheaper
 *   than them on at least 15 such types for one node (one type for several);
 * - candidates all on spot, replaced off spot: a cheaper offering that is not spot;
 * - otherwise: any cheaper offering.
 * Types are those the NodePools that can provision could launch, counted over all of them, with
 * every offering their requirements allow: more than any one replacement could choose from. On
 * 500 full nodes, a pass simulated nearly every candidate twice (with and without preferences)
 * only to find this out.
 */
export function noCheaperHome(
  candidates: readonly Candidate[],
  snapshot: DisruptionSnapshot,
  room: NodeRoom,
  spotToSpot: boolean,
): string | undefined {
  const stuck = stuckPods(candidates, room);
  if (stuck === undefined) return undefined;
  const price = candidates.reduce((s, c) => s + (c.price.known ? c.price.price : 0), 0);
  const spotTypes = new Set<string>();
  let offSpot = false;
  for (const pool of snapshot.nodePools) {
    if (!canProvision(pool)) continue;
    const { types, requirements } = room.launchable(pool);
    for (const type of types) {
      if (!stuck.requests.some((r) => fits(r, type.allocatable))) continue;
      for (const o of type.offerings) {
        if (!o.available || !(o.price < price) || !isOfferingCompatible(o, requirements)) continue;
        if (o.capacityType === CapacityTypes.Spot) spotTypes.add(type.name);
        else offSpot = true;
      }
    }
  }
  const allSpot = candidates.every((c) => c.price.known && c.price.capacityType === CapacityTypes.Spot);
  const spotNeeded = candidates.length === 1 ? MinSpotToSpotTypes : 1;
  const spotPossible = allSpot && spotToSpot && spotTypes.size >= spotNeeded;
  if (spotPossible || offSpot || (!allSpot && spotTypes.size > 0)) return undefined;
  const cheaper = `cheaper than ${formatPrice(price)}`;
  const { head, it } = stuck;
  if (!allSpot || spotTypes.size === 0)
    return `${head}, and no instance type that could hold ${it} is ${cheaper}`;
  if (!spotToSpot)
    return `${head}, spot-to-spot consolidation is disabled, and no instance type off spot that could hold ${it} is ${cheaper}`;
  return `${head}, and a spot replacement needs at least ${spotNeeded} spot instance types that could hold ${it} ${cheaper}, found ${spotTypes.size}`;
}

/**
 * Pods of the candidates of which at least one must land on a new NodeClaim if the consolidation
 * is to succeed, and how to say so; undefined when they may all fit on the other initialized
 * nodes. Either one pod that fits on none of them alone, or all the pods when they cannot fit
 * there together (any of them may then be the one left over).
 */
function stuckPods(
  candidates: readonly Candidate[],
  room: NodeRoom,
): { readonly head: string; readonly it: string; readonly requests: readonly ResourceList[] } | undefined {
  const leaving = new Set(candidates.map((c) => c.name));
  const all: ResourceList[] = [];
  for (const c of candidates) {
    for (const pod of c.node.reschedulable) {
      const requests = room.requestsOf(pod);
      if (!room.fitsElsewhere(requests, leaving))
        return {
          head: `its pod ${podKey(pod)} fits on no other initialized node`,
          it: 'it',
          requests: [requests],
        };
      all.push(requests);
    }
  }
  const short = room.togetherShortfall(all, leaving);
  if (short === undefined) return undefined;
  const { resource, needed, free } = short;
  return {
    head: `its ${all.length} pods need ${needed.toString()} ${resource} together, more than the ${free.toString()} free on the other initialized nodes with room for one of them`,
    it: 'one of them',
    requests: all,
  };
}
