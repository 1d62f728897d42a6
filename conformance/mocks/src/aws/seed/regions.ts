/** One availability zone of a seeded region. */
export interface ZoneFacts {
  readonly name: string;
  readonly id: string;
}

/** What the mocks know about a region: its zones and the Pricing API's location name. */
export interface RegionFacts {
  readonly name: string;
  readonly location: string;
  readonly zones: readonly ZoneFacts[];
}

/** The regions the mocks can be started in (zone ids as AWS maps them in a typical account). */
export const SEED_REGIONS: Readonly<Record<string, RegionFacts>> = {
  'us-east-1': {
    name: 'us-east-1',
    location: 'US East (N. Virginia)',
    zones: [
      { name: 'us-east-1a', id: 'use1-az1' },
      { name: 'us-east-1b', id: 'use1-az2' },
      { name: 'us-east-1c', id: 'use1-az4' },
    ],
  },
  'us-west-2': {
    name: 'us-west-2',
    location: 'US West (Oregon)',
    zones: [
      { name: 'us-west-2a', id: 'usw2-az1' },
      { name: 'us-west-2b', id: 'usw2-az2' },
      { name: 'us-west-2c', id: 'usw2-az3' },
    ],
  },
};

/** The region's facts; throws naming the region when the seed has none. */
export function regionFacts(region: string): RegionFacts {
  const facts = SEED_REGIONS[region];
  if (!facts)
    throw new Error(
      `aws mock: no seed for region '${region}' (known: ${Object.keys(SEED_REGIONS).join(', ')})`,
    );
  return facts;
}

/**
 * The private DNS suffix EC2 gives instances: `ec2.internal` in us-east-1 (the original
 * region), `<region>.compute.internal` everywhere else.
 */
export function privateDnsSuffix(region: string): string {
  return region === 'us-east-1' ? 'ec2.internal' : `${region}.compute.internal`;
}
