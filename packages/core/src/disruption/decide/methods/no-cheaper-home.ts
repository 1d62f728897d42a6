import { CapacityTypes } from '../../../apis/labels.js';
import { isOfferingCompatible } from '../../../cloudprovider/offering.js';
import { podKey } from '../../../scheduling/pod/identity.js';
import { podRequests } from '../../../scheduling/pod/requests.js';
import { fits } from '../../../scheduling/resources/fits.js';
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
 * rules consolidation prices a replacement with:
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
  const leaving = new Set(candidates.map((c) => c.name));
  let stuck: { readonly key: string; readonly requests: ReturnType<typeof podRequests> } | undefined;
  search: for (const c of candidates) {
    for (const pod of c.node.reschedulable) {
      const requests = podRequests(pod);
      if (!room.fitsElsewhere(requests, leaving)) {
        stuck = { key: podKey(pod), requests };
        break search;
      }
    }
  }
  if (stuck === undefined) return undefined;
  const price = candidates.reduce((s, c) => s + (c.price.known ? c.price.price : 0), 0);
  const spotTypes = new Set<string>();
  let offSpot = false;
  for (const pool of snapshot.nodePools) {
    if (!canProvision(pool)) continue;
    const { types, requirements } = room.launchable(pool);
    for (const type of types) {
      if (!fits(stuck.requests, type.allocatable)) continue;
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
  const head = `its pod ${stuck.key} fits on no other initialized node`;
  if (!allSpot || spotTypes.size === 0)
    return `${head}, and no instance type that could hold it is ${cheaper}`;
  if (!spotToSpot)
    return `${head}, spot-to-spot consolidation is disabled, and no instance type off spot that could hold it is ${cheaper}`;
  return `${head}, and a spot replacement needs at least ${spotNeeded} spot instance types that could hold it ${cheaper}, found ${spotTypes.size}`;
}
