import {
  type InstanceType,
  newInstanceType,
  newOffering,
  type Offering,
} from '@nodewright/core/cloudprovider';
import type { AwsPrices } from '../ports.js';
import { instanceTypeCapacity, memoryOverheadPods, type NodeShapeSettings } from './capacity.js';
import type { InstanceTypeFacts } from './facts.js';
import { instanceTypeOverhead } from './overhead.js';
import { instanceTypeRequirements, type ZoneInfo } from './requirements.js';

/** Whether an offering is refused for now (the unavailable-offerings cache, or a test double). */
export type OfferingUnavailable = (o: {
  capacityType: string;
  instanceType: string;
  zone: string;
}) => boolean;

/** Where and at what price a type is offered. */
export interface OfferingContext {
  /** Offering zones already intersected with the NodeClass's subnet zones. */
  readonly zones: readonly ZoneInfo[];
  readonly prices: AwsPrices;
  readonly unavailable?: OfferingUnavailable;
  readonly region?: string | undefined;
  /**
   * Offerings of one zone and capacity type share their (never mutated) requirements through
   * this map, which is what makes rebuilding offerings after a price or availability change cheap.
   */
  readonly templates?: Map<string, Offering>;
}

/**
 * One spot and/or on-demand offering per zone (as the type supports), priced from `prices`.
 * Without a price an offering is unavailable (price +Infinity), as is one the cache refuses.
 */
export function instanceTypeOfferings(facts: InstanceTypeFacts, context: OfferingContext): Offering[] {
  return context.zones.flatMap((z) =>
    facts.capacityTypes.map((capacityType) => {
      const price =
        capacityType === 'spot'
          ? context.prices.spot(facts.name, z.zone)
          : context.prices.onDemand(facts.name);
      const refused =
        context.unavailable?.({ capacityType, instanceType: facts.name, zone: z.zone }) ?? false;
      // No per-offering zone-id requirement: core checks offerings against claims with only
      // its own well-known labels allowed undefined, so a zone-id there made every offering
      // incompatible with any claim that does not name a zone-id. The type's requirements
      // still carry the zone IDs.
      const key = `${z.zone}\u0000${capacityType}`;
      let template = context.templates?.get(key);
      if (template === undefined) {
        template = newOffering({ zone: z.zone, capacityType, price: 0 });
        context.templates?.set(key, template);
      }
      return {
        ...template,
        price: price ?? Number.POSITIVE_INFINITY,
        available: price !== undefined && !refused,
      };
    }),
  );
}

/** An instance type without its offerings: what only the facts and the NodeClass decide. */
export type InstanceTypeShape = Omit<InstanceType, 'offerings'>;

/**
 * Requirements, capacity, overhead and allocatable of a type for a NodeClass's settings and
 * zones. Separate from the offerings so a price or availability change rebuilds only those.
 */
export function instanceTypeShape(
  facts: InstanceTypeFacts,
  settings: NodeShapeSettings,
  zones: readonly ZoneInfo[],
  region?: string,
): InstanceTypeShape {
  const capacity = instanceTypeCapacity(facts, settings);
  const { offerings: _none, ...shape } = newInstanceType({
    name: facts.name,
    requirements: instanceTypeRequirements(facts, zones, { amiFamily: settings.amiFamily, region }),
    offerings: [],
    capacity,
    overhead: instanceTypeOverhead(
      capacity,
      facts.vcpus,
      settings.kubelet,
      memoryOverheadPods(facts, settings),
    ),
  });
  return shape;
}

/**
 * An instance type as the scheduler sees it: requirements, capacity, overhead and offerings, all
 * derived from the facts, the NodeClass settings and the prices.
 */
export function buildInstanceType(
  facts: InstanceTypeFacts,
  settings: NodeShapeSettings,
  context: OfferingContext,
): InstanceType {
  return {
    ...instanceTypeShape(facts, settings, context.zones, context.region),
    offerings: instanceTypeOfferings(facts, context),
  };
}
