import type { QueryNode } from '../query/form.js';
import type { XmlObject } from '../query/xml.js';
import type {
  AwsSeed,
  ImageSeed,
  InstanceTypeFacts,
  SecurityGroupSeed,
  SpotPricePoint,
  SubnetSeed,
} from '../seed/index.js';

/** EC2 instance states and their codes (the low byte of `instanceState.code`). */
export const INSTANCE_STATE_CODES = {
  pending: 0,
  running: 16,
  'shutting-down': 32,
  terminated: 48,
  stopping: 64,
  stopped: 80,
} as const;
export type InstanceStateName = keyof typeof INSTANCE_STATE_CODES;

/** A subnet with its live free-address count. */
export interface Ec2Subnet extends SubnetSeed {
  availableIps: number;
  /** Next host number to hand out in the CIDR. */
  nextHost: number;
}

/** A launch template; `data` is the decoded `LaunchTemplateData` exactly as the request sent it. */
export interface Ec2LaunchTemplate {
  readonly id: string;
  readonly name: string;
  readonly createTime: number;
  readonly data: QueryNode;
  readonly tags: Map<string, string>;
}

/** One instance and everything DescribeInstances reports about it. */
export interface Ec2Instance {
  readonly id: string;
  readonly instanceType: string;
  readonly architecture: 'x86_64' | 'arm64';
  readonly zone: string;
  readonly zoneId: string;
  readonly subnetId: string;
  readonly vpcId: string;
  readonly imageId: string | undefined;
  readonly privateIp: string;
  readonly privateDnsName: string;
  readonly launchTime: number;
  state: InstanceStateName;
  stateTransitionReason: string;
  readonly lifecycle: 'spot' | 'on-demand';
  readonly spotInstanceRequestId: string | undefined;
  /** Set by tests to stand for a launch into a capacity reservation (the harness then reports `reserved`). */
  capacityReservationId: string | undefined;
  readonly securityGroups: readonly { readonly id: string; readonly name: string }[];
  readonly tags: Map<string, string>;
  readonly volumeTags: Map<string, string>;
  readonly launchTemplate: { readonly id: string; readonly name: string; readonly version: string };
  /** Base64 user data from the launch template, as EC2 stores it. */
  readonly userData: string | undefined;
  readonly iamInstanceProfile: { readonly arn?: string; readonly name?: string } | undefined;
  /** Root volume size in GiB from the launch template's first EBS mapping (EC2 AMI default 20). */
  readonly rootVolumeGiB: number;
  readonly fleetId: string;
  /** When it reached `terminated`, for pruning. */
  terminatedAt?: number;
}

/** A fleet CreateFleet made, kept for its tags. */
export interface Ec2Fleet {
  readonly id: string;
  readonly tags: Map<string, string>;
  readonly instanceIds: readonly string[];
}

/**
 * The EC2 world a mock serves: seeded catalog and network, and the instances, launch templates
 * and fleets calls create. Actions mutate it; tests read it (and may change it) directly.
 */
export class Ec2State {
  readonly region: string;
  readonly zones: readonly { readonly name: string; readonly id: string }[];
  readonly instanceTypes: ReadonlyMap<string, InstanceTypeFacts>;
  /** `${type}/${zone}` for every offering. */
  readonly offerings: Set<string>;
  readonly spotPrices: SpotPricePoint[];
  readonly subnets: Map<string, Ec2Subnet>;
  readonly securityGroups: Map<string, SecurityGroupSeed>;
  readonly images: Map<string, ImageSeed>;
  readonly launchTemplates = new Map<string, Ec2LaunchTemplate>();
  readonly instances = new Map<string, Ec2Instance>();
  readonly fleets = new Map<string, Ec2Fleet>();
  /**
   * Idempotent requests by ClientToken: the request they came with (canonical, without the
   * token) and the response EC2 returns to a repeat of it.
   */
  readonly clientTokens = new Map<string, { readonly request: string; readonly response: XmlObject }>();
  #serial = 0;

  constructor(seed: AwsSeed) {
    this.region = seed.region.name;
    this.zones = seed.region.zones;
    this.instanceTypes = new Map(seed.instanceTypes.map((t) => [t.name, t]));
    this.offerings = new Set(seed.offerings.map((o) => offeringKey(o.instanceType, o.zone)));
    this.spotPrices = [...seed.spotPrices];
    this.subnets = new Map(seed.subnets.map((s) => [s.id, { ...s, nextHost: 10 }]));
    this.securityGroups = new Map(seed.securityGroups.map((g) => [g.id, g]));
    this.images = new Map(seed.images.map((i) => [i.id, i]));
  }

  /** A fresh id with EC2's prefix and 17 hex digits, unique within this mock. */
  nextId(prefix: string): string {
    this.#serial++;
    return `${prefix}-0${this.#serial.toString(16).padStart(16, '0')}`;
  }

  isOffered(instanceType: string, zone: string): boolean {
    return this.offerings.has(offeringKey(instanceType, zone));
  }

  /** The spot price in effect now for a type in a zone (Linux/UNIX), if the zone sells it. */
  currentSpotPrice(instanceType: string, zone: string): number | undefined {
    let best: SpotPricePoint | undefined;
    for (const p of this.spotPrices) {
      if (p.instanceType !== instanceType || p.zone !== zone || p.productDescription !== 'Linux/UNIX')
        continue;
      if (!best || p.timestamp > best.timestamp) best = p;
    }
    return best?.usd;
  }

  /** Launch template by id or name; undefined when neither matches. */
  findLaunchTemplate(ref: { readonly id?: string; readonly name?: string }): Ec2LaunchTemplate | undefined {
    if (ref.id !== undefined) return this.launchTemplates.get(ref.id);
    for (const lt of this.launchTemplates.values()) if (lt.name === ref.name) return lt;
    return undefined;
  }
}

export function offeringKey(instanceType: string, zone: string): string {
  return `${instanceType}/${zone}`;
}

/** The next private address of a subnet (host numbers from 10, as EC2 leaves the first few). */
export function allocateAddress(subnet: Ec2Subnet): string {
  const [base, bits] = subnet.cidr.split('/');
  const octets = (base ?? '0.0.0.0').split('.').map(Number);
  const start =
    ((octets[0] ?? 0) << 24) | ((octets[1] ?? 0) << 16) | ((octets[2] ?? 0) << 8) | (octets[3] ?? 0);
  const size = 2 ** (32 - Number(bits));
  const host = subnet.nextHost;
  subnet.nextHost = host + 1 >= size - 1 ? 10 : host + 1;
  const ip = (start + host) >>> 0;
  return [ip >>> 24, (ip >>> 16) & 255, (ip >>> 8) & 255, ip & 255].join('.');
}
