import {
  type InstanceType,
  newInstanceType,
  newOffering,
  type Offering,
} from '@nodewright/core/cloudprovider';
import { instanceTypeCapacity, type NodeShapeSettings } from './capacity.js';
import type { GceMachineTypeFacts } from './facts.js';
import { gkeOverhead } from './overhead.js';
import { GceCapacityTypes, instanceTypeRequirements } from './requirements.js';

/** Hourly prices of a machine type; undefined where no price is known. */
export interface GcePrices {
  onDemand(machineType: string): number | undefined;
  spot(machineType: string): number | undefined;
}

/** Whether an offering is refused for now (the unavailable-offerings cache). */
export type OfferingUnavailable = (o: {
  capacityType: string;
  instanceType: string;
  zone: string;
}) => boolean;

/** Where and at what price types are offered. */
export interface OfferingContext {
  readonly prices: GcePrices;
  readonly region?: string | undefined;
  readonly unavailable?: OfferingUnavailable | undefined;
  /** Restricts the type's zones (a NodeClass subnetwork's region, a test); all of them when unset. */
  readonly zones?: readonly string[] | undefined;
}

/**
 * One spot and one on-demand offering per zone the type is offered in. An offering without a
 * price is unavailable (price +Infinity), as is one the unavailable-offerings cache refuses.
 */
export function instanceTypeOfferings(facts: GceMachineTypeFacts, context: OfferingContext): Offering[] {
  const zones =
    context.zones === undefined ? facts.zones : facts.zones.filter((z) => context.zones!.includes(z));
  return zones.flatMap((zone) =>
    GceCapacityTypes.map((capacityType) => {
      const price =
        capacityType === 'spot' ? context.prices.spot(facts.name) : context.prices.onDemand(facts.name);
      const refused = context.unavailable?.({ capacityType, instanceType: facts.name, zone }) ?? false;
      return newOffering({
        zone,
        capacityType,
        price: price ?? Number.POSITIVE_INFINITY,
        available: price !== undefined && !refused,
      });
    }),
  );
}

/**
 * A machine type as the scheduler sees it: requirements, capacity, GKE's overhead and the
 * offerings, all from the facts, the NodeClass's settings and the prices.
 */
export function buildInstanceType(
  facts: GceMachineTypeFacts,
  settings: NodeShapeSettings,
  context: OfferingContext,
): InstanceType {
  const offerings = instanceTypeOfferings(facts, context);
  const capacity = instanceTypeCapacity(facts, settings);
  return newInstanceType({
    name: facts.name,
    requirements: instanceTypeRequirements(facts, [...new Set(offerings.map((o) => o.zone))], context.region),
    offerings,
    capacity,
    overhead: gkeOverhead(facts, capacity, settings.kubelet),
  });
}
