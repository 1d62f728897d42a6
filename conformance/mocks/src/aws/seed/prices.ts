import { fractionOf } from './hash.js';
import type { InstanceTypeFacts } from './instance-types.js';
import type { RegionFacts } from './regions.js';

/** One DescribeSpotPriceHistory row. */
export interface SpotPricePoint {
  readonly instanceType: string;
  readonly zone: string;
  readonly zoneId: string;
  readonly productDescription: string;
  readonly usd: number;
  readonly timestamp: number;
}

/**
 * Spot price as a share of on-demand for one type in one zone: 28-55 %, fixed per type x zone x
 * version, in the range EC2's spot market shows for these families.
 */
export function spotFraction(instanceType: string, zone: string, version: number): number {
  return 0.28 + 0.27 * fractionOf(`${instanceType}/${zone}/${version}`);
}

const HISTORY_AGES_MS = [48 * 3_600_000, 6 * 3_600_000, 3_600_000];

/**
 * Spot price history: three changes per type x zone (2 days, 6 h and 1 h before `now`) for
 * Linux/UNIX, and Windows at on-demand Windows premium. The newest point is the price in effect.
 */
export function spotHistory(
  types: readonly InstanceTypeFacts[],
  region: RegionFacts,
  offered: (type: string, zone: string) => boolean,
  now: number,
): SpotPricePoint[] {
  const out: SpotPricePoint[] = [];
  for (const t of types) {
    for (const z of region.zones) {
      if (!offered(t.name, z.name)) continue;
      HISTORY_AGES_MS.forEach((age, version) => {
        const usd = roundUsd(t.onDemandUsd * spotFraction(t.name, z.name, version));
        const base = { instanceType: t.name, zone: z.name, zoneId: z.id, timestamp: now - age };
        out.push({ ...base, productDescription: 'Linux/UNIX', usd });
        out.push({ ...base, productDescription: 'Windows', usd: roundUsd(usd + windowsPremium(t)) });
      });
    }
  }
  return out;
}

/** What Windows licensing adds per hour: $0.046 per vCPU-hour (EC2's on-demand Windows delta). */
export function windowsPremium(t: Pick<InstanceTypeFacts, 'vcpus'>): number {
  return roundUsd(0.046 * t.vcpus);
}

export function roundUsd(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}
