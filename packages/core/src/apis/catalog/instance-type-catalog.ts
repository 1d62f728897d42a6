import { z } from 'zod';
import type { KindDefinition } from '../kind.js';
import { clusterObjectMetaSchema } from '../kubernetes/meta.js';
import { labelsSchema, labelValueSchema, qualifiedNameSchema } from '../kubernetes/names.js';
import { optional } from '../kubernetes/optional.js';
import { approximateQuantity, resourceListSchema } from '../kubernetes/quantity.js';
import { Labels } from '../labels.js';

export const InstanceTypeCatalogApiVersion = 'nodewright.dev/v1alpha1';
export const InstanceTypeCatalogKind = 'InstanceTypeCatalog';

export const offeringCapacityTypes = ['on-demand', 'spot', 'reserved'] as const;

/**
 * Where and how a type can be launched, and at what hourly price. `available` defaults to
 * true; `reservationCapacity` (instances left in the reservation) only means something for a
 * reserved offering.
 */
export const catalogOfferingSchema = z
  .strictObject({
    zone: z.string().min(1, { error: 'must not be empty' }),
    capacityType: z.enum(offeringCapacityTypes),
    price: z
      .number({ error: 'must be a number (the price per hour)' })
      .min(0, { error: 'must not be negative' }),
    available: z.boolean().default(true),
    reservationCapacity: optional(
      z.number().int({ error: 'must be a whole number' }).min(0, { error: 'must not be negative' }),
    ),
  })
  .superRefine((offering, ctx) => {
    if (offering.reservationCapacity !== undefined && offering.capacityType !== 'reserved') {
      ctx.addIssue({
        code: 'custom',
        path: ['reservationCapacity'],
        message: `may only be set when capacityType is reserved, not ${offering.capacityType}`,
      });
    }
  });
export type CatalogOffering = z.output<typeof catalogOfferingSchema>;

/** What the node keeps for itself; allocatable = capacity - kubeReserved - systemReserved - evictionThreshold. */
export const catalogOverheadSchema = z.strictObject({
  kubeReserved: optional(resourceListSchema),
  systemReserved: optional(resourceListSchema),
  evictionThreshold: optional(resourceListSchema),
});
export type CatalogOverhead = z.output<typeof catalogOverheadSchema>;

/** Labels that belong to an offering, not to the type, so a type may not fix them. */
const OfferingLabels: readonly string[] = [Labels.Zone, Labels.CapacityType];

/**
 * One instance type. `name` becomes the `node.kubernetes.io/instance-type` label, so it must
 * be a valid label value; `labels` hold one value per key and, with the name, are the type's
 * requirements. Capacity must state cpu and memory.
 */
export const catalogInstanceTypeSchema = z
  .strictObject({
    name: z.string().min(1, { error: 'must not be empty' }).pipe(labelValueSchema),
    labels: optional(labelsSchema).transform((labels) => labels ?? {}),
    capacity: resourceListSchema,
    overhead: optional(catalogOverheadSchema),
    offerings: z.array(catalogOfferingSchema).min(1, { error: 'must have at least one offering' }),
  })
  .superRefine((type, ctx) => {
    for (const resource of ['cpu', 'memory']) {
      if (type.capacity[resource] === undefined) {
        ctx.addIssue({ code: 'custom', path: ['capacity', resource], message: 'is required' });
      }
    }
    const ownName = type.labels[Labels.InstanceType];
    if (ownName !== undefined && ownName !== type.name) {
      ctx.addIssue({
        code: 'custom',
        path: ['labels', Labels.InstanceType],
        message: `must equal the type's name ${JSON.stringify(type.name)} (or be left out: it is set from the name)`,
      });
    }
    for (const key of OfferingLabels) {
      if (type.labels[key] !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['labels', key],
          message: 'is set per offering (zone and capacityType), not per type',
        });
      }
    }
    for (const [resource, total] of overheadTotals(type.overhead)) {
      const capacity = type.capacity[resource];
      if (capacity !== undefined && total > approximateQuantity(capacity)) {
        ctx.addIssue({
          code: 'custom',
          path: ['overhead'],
          message: `reserves more ${resource} than the capacity (${capacity})`,
        });
      }
    }
    const seen = new Map<string, number>();
    for (const [i, offering] of type.offerings.entries()) {
      // A reserved offering is one reservation; a zone may hold several of them.
      if (offering.capacityType === 'reserved') continue;
      const key = `${offering.zone}\u0000${offering.capacityType}`;
      const first = seen.get(key);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['offerings', i],
          message: `repeats offerings[${first}] (${offering.capacityType} in ${offering.zone})`,
        });
      } else {
        seen.set(key, i);
      }
    }
  });
export type CatalogInstanceType = z.output<typeof catalogInstanceTypeSchema>;

function overheadTotals(overhead: CatalogOverhead | undefined): Map<string, number> {
  const totals = new Map<string, number>();
  for (const list of [overhead?.kubeReserved, overhead?.systemReserved, overhead?.evictionThreshold]) {
    for (const [resource, quantity] of Object.entries(list ?? {})) {
      totals.set(resource, (totals.get(resource) ?? 0) + approximateQuantity(quantity));
    }
  }
  return totals;
}

/**
 * A `nodewright.dev/v1alpha1` InstanceTypeCatalog: instance types with capacity, overhead and
 * priced offerings, for `schedule`, `disrupt` and simulation without a cloud. It is
 * nodewright's own format, so unknown fields are errors (a typo would otherwise be silently
 * ignored), and type names must be unique.
 *
 * `wellKnownLabels` (optional) names label keys that are well known for these types, as a
 * provider's are (AWS: `karpenter.k8s.aws/instance-family`, ...): a pod may select on them
 * though its NodePool does not name them, and a type that does not carry one counts as
 * `DoesNotExist` for it. Every label key some type of the catalog carries is well known this way
 * without being listed; listing a key matters when no type carries it (then a pod requiring it is
 * told no type has it) and documents what the catalog's labels are.
 */
export const instanceTypeCatalogSchema = z
  .strictObject({
    apiVersion: z.literal(InstanceTypeCatalogApiVersion),
    kind: z.literal(InstanceTypeCatalogKind),
    metadata: clusterObjectMetaSchema,
    wellKnownLabels: optional(z.array(qualifiedNameSchema)),
    instanceTypes: z.array(catalogInstanceTypeSchema),
  })
  .superRefine((catalog, ctx) => {
    const seen = new Map<string, number>();
    for (const [i, type] of catalog.instanceTypes.entries()) {
      const first = seen.get(type.name);
      if (first !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['instanceTypes', i, 'name'],
          message: `${JSON.stringify(type.name)} is already the name of instanceTypes[${first}]`,
        });
      } else {
        seen.set(type.name, i);
      }
    }
  });
export type InstanceTypeCatalog = z.output<typeof instanceTypeCatalogSchema>;

/** The InstanceTypeCatalog kind: cluster-scoped, never applied to a cluster, so no CRD. */
export const instanceTypeCatalogKind: KindDefinition<InstanceTypeCatalog> = {
  apiVersion: InstanceTypeCatalogApiVersion,
  kind: InstanceTypeCatalogKind,
  namespaced: false,
  schema: instanceTypeCatalogSchema,
};
