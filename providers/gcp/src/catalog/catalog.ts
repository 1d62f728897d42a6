import {
  type CatalogInstanceType,
  type InstanceTypeCatalog,
  InstanceTypeCatalogApiVersion,
  InstanceTypeCatalogKind,
} from '@nodewright/core/apis';
import { catalogEntryOf } from '@nodewright/core/catalog';
import { buildInstanceType } from '../instancetype/build.js';
import type { NodeShapeSettings } from '../instancetype/capacity.js';
import { GcpWellKnownLabels } from '../instancetype/labels.js';
import { composedPrices } from '../pricing/components.js';
import { StaticComponentPrices } from '../pricing/static-prices.js';
import { DefaultGcpCatalogRegion } from './catalog-providers.js';
import { CatalogZones, catalogMachineTypes } from './machine-types.js';

export interface GcpCatalogOptions {
  /** One of the static table's regions; us-central1 by default. */
  readonly region?: string;
  /** The GCENodeClass fields shaping capacity and overhead (kubelet, disks). */
  readonly settings?: NodeShapeSettings;
}

/**
 * An offline InstanceTypeCatalog of the common Compute Engine families in `region`, priced from
 * the shipped list prices (on-demand and spot per zone), with labels, capacity and GKE's overhead
 * from the very functions the live provider uses.
 * @throws Error when the static table has no prices for `region`.
 */
export function gcpCatalog(options: GcpCatalogOptions = {}): InstanceTypeCatalog {
  const region = options.region ?? DefaultGcpCatalogRegion;
  const components = StaticComponentPrices[region];
  if (components === undefined || CatalogZones[region] === undefined) {
    throw new Error(
      `the offline GCP catalog has no prices for region ${region} (it has ${Object.keys(StaticComponentPrices).join(', ')})`,
    );
  }
  const facts = catalogMachineTypes(region);
  const prices = composedPrices(facts, components);
  const instanceTypes: CatalogInstanceType[] = facts.map((f) => {
    const it = buildInstanceType(f, options.settings ?? {}, { prices, region });
    return catalogEntryOf(it);
  });
  return {
    apiVersion: InstanceTypeCatalogApiVersion,
    kind: InstanceTypeCatalogKind,
    metadata: { name: region === DefaultGcpCatalogRegion ? 'gcp' : `gcp-${region}` },
    wellKnownLabels: [...GcpWellKnownLabels],
    instanceTypes,
  };
}
