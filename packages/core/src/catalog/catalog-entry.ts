import type { CatalogInstanceType } from '../apis/catalog/instance-type-catalog.js';
import { Labels } from '../apis/labels.js';
import type { InstanceType } from '../cloudprovider/instance-type.js';
import { formatResourceList } from '../scheduling/resources/resource-list.js';

/**
 * An instance type as an InstanceTypeCatalog lists it: its labels but zone and capacity type
 * (which belong to offerings in the catalog format), capacity, overhead and offerings. How a
 * provider's offline catalog reuses the very InstanceType its live provider builds.
 */
export function catalogInstanceType(it: InstanceType): CatalogInstanceType {
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(it.requirements.labels())) {
    if (key !== Labels.Zone && key !== Labels.CapacityType) labels[key] = value;
  }
  return {
    name: it.name,
    labels,
    capacity: formatResourceList(it.capacity),
    overhead: {
      kubeReserved: formatResourceList(it.overhead.kubeReserved),
      systemReserved: formatResourceList(it.overhead.systemReserved),
      evictionThreshold: formatResourceList(it.overhead.evictionThreshold),
    },
    offerings: it.offerings.map((o) => ({
      zone: o.zone,
      capacityType: o.capacityType as CatalogInstanceType['offerings'][number]['capacityType'],
      price: o.price,
      available: o.available,
    })),
  };
}
