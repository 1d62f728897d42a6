import {
  type CatalogInstanceType,
  type InstanceTypeCatalog,
  InstanceTypeCatalogApiVersion,
  InstanceTypeCatalogKind,
} from '@nodewright/core/apis';
import { catalogInstanceType } from '@nodewright/core/catalog';
import { buildInstanceType } from '../instancetype/build.js';
import type { NodeShapeSettings } from '../instancetype/capacity.js';
import { AwsWellKnownLabels } from '../instancetype/labels.js';
import { CatalogSpotFraction, DefaultCatalogRegion } from './catalog-providers.js';
import { type AwsCatalogData, catalogDataRegions, catalogRowFacts, readAwsCatalogData } from './data.js';

export {
  AwsCatalogRegions,
  awsCatalogProvider,
  awsRegionCatalogProviders,
  CatalogSpotFraction,
  DefaultCatalogRegion,
} from './catalog-providers.js';

export interface AwsCatalogOptions {
  /** Whose prices to use, one of the table's regions; us-east-1 by default. */
  readonly region?: string;
  /** Zones to offer every type in; `<region>a..c` by default. */
  readonly zones?: readonly string[];
  readonly spotFraction?: number;
  /** The EC2NodeClass fields shaping capacity and overhead (amiFamily, kubelet, block devices). */
  readonly settings?: NodeShapeSettings;
  /** The table; data/aws-catalog.json by default. */
  readonly data?: AwsCatalogData;
}

const round6 = (price: number) => Math.round(price * 1e6) / 1e6;

/**
 * An offline InstanceTypeCatalog of every current-generation EC2 type the table (data.ts) prices
 * in `region`, at its on-demand list price there, spot at `spotFraction` of it, with on-demand and
 * spot offerings in each zone. Types the region does not price are not offered there. Labels,
 * capacity (GPUs as nvidia.com/gpu or amd.com/gpu, Inferentia/Trainium as aws.amazon.com/neuron)
 * and overhead come from the very functions the live provider uses, so `schedule --catalog aws`
 * packs as the controller would on AL2023 with default kubelet settings.
 * @throws Error when the table has no prices for `region`.
 */
export function awsCatalog(options: AwsCatalogOptions = {}): InstanceTypeCatalog {
  const region = options.region ?? DefaultCatalogRegion;
  const data = options.data ?? readAwsCatalogData();
  const rows = data.instanceTypes.filter((row) => row.prices[region] !== undefined);
  if (rows.length === 0) {
    throw new Error(
      `the offline AWS catalog has no prices for region ${region} (it has ${catalogDataRegions(data).join(', ')})`,
    );
  }
  const zones = (options.zones ?? ['a', 'b', 'c'].map((s) => `${region}${s}`)).map((zone) => ({ zone }));
  const fraction = options.spotFraction ?? CatalogSpotFraction;
  const onDemand = new Map(rows.map((row) => [row.name, row.prices[region]!]));
  const prices = {
    onDemand: (t: string) => onDemand.get(t),
    spot: (t: string) => {
      const od = onDemand.get(t);
      return od === undefined ? undefined : round6(od * fraction);
    },
  };
  const instanceTypes: CatalogInstanceType[] = rows.map((row) => {
    const it = buildInstanceType(catalogRowFacts(row), options.settings ?? {}, { zones, prices, region });
    return catalogInstanceType(it);
  });
  return {
    apiVersion: InstanceTypeCatalogApiVersion,
    kind: InstanceTypeCatalogKind,
    metadata: { name: region === DefaultCatalogRegion ? 'aws' : `aws-${region}` },
    wellKnownLabels: [...AwsWellKnownLabels],
    instanceTypes,
  };
}
