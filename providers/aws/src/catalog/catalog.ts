import {
  type CatalogInstanceType,
  type InstanceTypeCatalog,
  InstanceTypeCatalogApiVersion,
  InstanceTypeCatalogKind,
} from '@nodewright/core/apis';
import type { CatalogProvider } from '@nodewright/core/catalog';
import { formatResourceList } from '@nodewright/core/scheduling';
import { buildInstanceType } from '../instancetype/build.js';
import type { NodeShapeSettings } from '../instancetype/capacity.js';
import { AwsWellKnownLabels } from '../instancetype/labels.js';
import { staticOnDemandPrices } from '../pricing/static-prices.js';
import { catalogInstanceFacts } from './instance-facts.js';

/** Spot prices in the offline catalog, as a fraction of on-demand: a typical long-run spot discount. */
export const CatalogSpotFraction = 0.4;

export interface AwsCatalogOptions {
  /** Whose static prices to use; us-east-1 by default. */
  readonly region?: string;
  /** Zones to offer every type in; `<region>a..c` by default. */
  readonly zones?: readonly string[];
  readonly spotFraction?: number;
  /** The EC2NodeClass fields shaping capacity and overhead (amiFamily, kubelet, block devices). */
  readonly settings?: NodeShapeSettings;
}

const round6 = (price: number) => Math.round(price * 1e6) / 1e6;

/**
 * An offline InstanceTypeCatalog of real EC2 types (see instance-facts.ts) with the static
 * on-demand prices, spot at `spotFraction` of on-demand, on-demand and spot offerings in each
 * zone, and labels, capacity and overhead from the very functions the live provider uses, so
 * `schedule --catalog aws` packs as the controller would on AL2023 with default kubelet settings.
 */
export function awsCatalog(options: AwsCatalogOptions = {}): InstanceTypeCatalog {
  const region = options.region ?? 'us-east-1';
  const zones = (options.zones ?? ['a', 'b', 'c'].map((s) => `${region}${s}`)).map((zone) => ({ zone }));
  const fraction = options.spotFraction ?? CatalogSpotFraction;
  const table = staticOnDemandPrices(region).prices;
  const prices = {
    onDemand: (t: string) => table[t],
    spot: (t: string) => {
      const od = table[t];
      return od === undefined ? undefined : round6(od * fraction);
    },
  };
  const instanceTypes: CatalogInstanceType[] = catalogInstanceFacts().map((facts) => {
    const it = buildInstanceType(facts, options.settings ?? {}, { zones, prices, region });
    const labels: Record<string, string> = {};
    for (const [key, value] of Object.entries(it.requirements.labels())) {
      // Zone and capacity type belong to offerings in the catalog format.
      if (key !== 'topology.kubernetes.io/zone' && key !== 'karpenter.sh/capacity-type') labels[key] = value;
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
        capacityType: o.capacityType as 'on-demand' | 'spot',
        price: o.price,
        available: o.available,
      })),
    };
  });
  return {
    apiVersion: InstanceTypeCatalogApiVersion,
    kind: InstanceTypeCatalogKind,
    metadata: { name: 'aws' },
    wellKnownLabels: [...AwsWellKnownLabels],
    instanceTypes,
  };
}

/** `--catalog aws`: real EC2 types and static prices, offline. */
export const awsCatalogProvider: CatalogProvider = {
  name: 'aws',
  description: `EC2 t3/m5/m6i/m7i/c5/c6i/c7i/r5/r6i/m6g/c6g/r6g/m7g/g4dn (medium..16xlarge), us-east-1a..c, us-east-1 on-demand list prices, spot at ${CatalogSpotFraction}x`,
  catalog: () => awsCatalog(),
};
