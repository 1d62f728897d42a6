import type { Subnet } from '@aws-sdk/client-ec2';
import type { Clock } from '@nodewright/core/clock';
import type { Ec2Api } from '../sdk/index.js';

/** A subnet a launch may use. */
export interface ZonalSubnet {
  readonly id: string;
  readonly zone: string;
  readonly availableIps: number;
}

/**
 * Per zone, the subnet with the most free IP addresses (ties: the lower id, so the choice is
 * stable). Subnets with no free address are skipped: a launch there fails with
 * InsufficientFreeAddressesInSubnet.
 */
export function subnetPerZone(subnets: readonly ZonalSubnet[]): Map<string, ZonalSubnet> {
  const best = new Map<string, ZonalSubnet>();
  for (const s of subnets) {
    if (s.availableIps <= 0) continue;
    const current = best.get(s.zone);
    if (
      current === undefined ||
      s.availableIps > current.availableIps ||
      (s.availableIps === current.availableIps && s.id < current.id)
    ) {
      best.set(s.zone, s);
    }
  }
  return best;
}

/** How to build Subnets. */
export interface SubnetsDeps {
  readonly ec2: Ec2Api;
  readonly clock: Clock;
  /** How long free-IP counts are reused; default 30 s (brief, since every launch consumes IPs). */
  readonly ttlMs?: number;
}

/**
 * Free-IP counts of the subnets an EC2NodeClass resolved (its status), from DescribeSubnets,
 * cached briefly per subnet set so a burst of launches makes one call.
 */
export class Subnets {
  readonly #ec2: Ec2Api;
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #cache = new Map<string, { at: number; subnets: ZonalSubnet[] }>();

  constructor(deps: SubnetsDeps) {
    this.#ec2 = deps.ec2;
    this.#clock = deps.clock;
    this.#ttlMs = deps.ttlMs ?? 30_000;
  }

  /** The subnets among `ids` EC2 still knows, with zone and free IPs. */
  async describe(ids: readonly string[]): Promise<ZonalSubnet[]> {
    const key = [...ids].sort().join(',');
    const hit = this.#cache.get(key);
    if (hit !== undefined && this.#clock.now() - hit.at < this.#ttlMs) return hit.subnets;
    const out = await this.#ec2.describeSubnets({ SubnetIds: [...ids] });
    const subnets = (out.Subnets ?? []).flatMap((s: Subnet) =>
      s.SubnetId !== undefined && s.AvailabilityZone !== undefined
        ? [{ id: s.SubnetId, zone: s.AvailabilityZone, availableIps: s.AvailableIpAddressCount ?? 0 }]
        : [],
    );
    this.#cache.set(key, { at: this.#clock.now(), subnets });
    return subnets;
  }
}
