import { type ImageSeed, seedImages } from './images.js';
import { type InstanceTypeFacts, SEED_INSTANCE_TYPES } from './instance-types.js';
import { type SecurityGroupSeed, type SubnetSeed, seedSecurityGroups, seedSubnets } from './network.js';
import { type ParameterSeed, publicParameters } from './parameters.js';
import { type SpotPricePoint, spotHistory } from './prices.js';
import { type RegionFacts, regionFacts } from './regions.js';

export * from './images.js';
export * from './instance-types.js';
export * from './network.js';
export * from './parameters.js';
export * from './prices.js';
export * from './regions.js';

/** Everything an AWS mock starts with for one region and cluster. */
export interface AwsSeed {
  readonly region: RegionFacts;
  readonly cluster: string;
  readonly kubernetesVersion: string;
  readonly instanceTypes: readonly InstanceTypeFacts[];
  /** Which zones offer each type (DescribeInstanceTypeOfferings). */
  readonly offerings: readonly { readonly instanceType: string; readonly zone: string }[];
  readonly spotPrices: readonly SpotPricePoint[];
  readonly subnets: readonly SubnetSeed[];
  readonly securityGroups: readonly SecurityGroupSeed[];
  readonly images: readonly ImageSeed[];
  /** Public SSM parameters naming the EKS images (GetParameter). */
  readonly parameters: readonly ParameterSeed[];
}

export interface SeedOptions {
  readonly region?: string;
  readonly cluster?: string;
  readonly kubernetesVersion?: string;
  /** ms since epoch the spot price history is relative to. */
  readonly now: number;
}

/** Families not offered in a region's third zone, as older or scarcer types often are not. */
const NOT_IN_THIRD_ZONE = ['g4dn.', 'm4.', 'p4d.', 'p5.'];

/** The seed for a region (default us-east-1) and cluster (default `nodewright`). */
export function buildSeed(options: SeedOptions): AwsSeed {
  const region = regionFacts(options.region ?? 'us-east-1');
  const cluster = options.cluster ?? 'nodewright';
  const kubernetesVersion = options.kubernetesVersion ?? '1.34';
  const third = region.zones[2]?.name;
  const offered = (type: string, zone: string) =>
    !(zone === third && NOT_IN_THIRD_ZONE.some((prefix) => type.startsWith(prefix)));
  const offerings = SEED_INSTANCE_TYPES.flatMap((t) =>
    region.zones.filter((z) => offered(t.name, z.name)).map((z) => ({ instanceType: t.name, zone: z.name })),
  );
  const images = seedImages(region.name, kubernetesVersion, cluster);
  return {
    region,
    cluster,
    kubernetesVersion,
    instanceTypes: SEED_INSTANCE_TYPES,
    offerings,
    spotPrices: spotHistory(SEED_INSTANCE_TYPES, region, offered, options.now),
    subnets: seedSubnets(region, cluster),
    securityGroups: seedSecurityGroups(region, cluster),
    images,
    parameters: publicParameters(images),
  };
}
