import {
  type CatalogInstanceType,
  type InstanceTypeCatalog,
  InstanceTypeCatalogApiVersion,
  InstanceTypeCatalogKind,
} from '@nodewright/core/apis';
import { type CatalogProvider, catalogInstanceType } from '@nodewright/core/catalog';
import { buildInstanceType } from '../instancetype/build.js';
import type { NodeShapeSettings } from '../instancetype/capacity.js';
import { AwsWellKnownLabels } from '../instancetype/labels.js';
import { type AwsCatalogData, catalogDataRegions, catalogRowFacts, readAwsCatalogData } from './data.js';

/**
 * Spot prices in the offline catalog, as a fraction of on-demand. Karpenter's public tables
 * carry no spot prices (spot is a market, read live with DescribeSpotPriceHistory), so the
 * catalog estimates every type's spot price as this share of its on-demand price: a typical
 * long-run spot discount of about 60 %.
 */
export const CatalogSpotFraction = 0.4;

/** The region `--catalog aws` prices. */
export const DefaultCatalogRegion = 'us-east-1';

/**
 * The regions data/aws-catalog.json prices, each offered as `--catalog aws:<region>`. Listed here
 * so the CLI's catalog list costs no file read; a unit test keeps it equal to the table's.
 */
export const AwsCatalogRegions = ['us-east-1', 'us-gov-east-1', 'us-gov-west-1'] as const;

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

const catalogDescription = (region: string) =>
  `current-generation EC2 types (Nitro families, all sizes to metal) at ${region} list prices, ${region}a..c, spot at ${CatalogSpotFraction}x`;

/** `--catalog aws`: every current-generation EC2 type at us-east-1 prices, offline. */
export const awsCatalogProvider: CatalogProvider = {
  name: 'aws',
  description: `${catalogDescription(DefaultCatalogRegion)}; aws:REGION for another region`,
  catalog: () => awsCatalog(),
};

/** `--catalog aws:<region>`, one per region of the table. */
export const awsRegionCatalogProviders: readonly CatalogProvider[] = AwsCatalogRegions.map((region) => ({
  name: `aws:${region}`,
  description: catalogDescription(region),
  catalog: () => awsCatalog({ region }),
}));
