/**
 * Readers for the data tables Karpenter's AWS provider generates as Go source
 * (aws/karpenter-provider-aws, `pkg/providers/...`). They read the map literals as data — region
 * and type names, numbers — and never evaluate anything; a table whose shape they do not
 * recognise yields an error naming the table, not an empty result.
 */

/** On-demand prices per region (USD per hour for the commercial and GovCloud tables). */
export interface PriceTable {
  /** region -> instance type -> price */
  readonly regions: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** The `generated at ...` stamp of the file, when it has one. */
  readonly generatedAt?: string;
}

const RegionOpen = /^\t"([a-z0-9-]+)": \{\s*$/;
const PricePair = /"([a-z0-9-]+\.[a-z0-9-]+)":\s*([0-9]+(?:\.[0-9]+)?)/g;
const GeneratedAt = /generated at ([0-9T:Z-]+)/;

/**
 * Reads `zz_generated.pricing_*.go`: one `"region": { "type": price, ... }` block per region.
 * @throws Error when no region block with prices is found.
 */
export function parsePriceTable(text: string, file = 'pricing table'): PriceTable {
  const regions = new Map<string, Map<string, number>>();
  let current: Map<string, number> | undefined;
  for (const line of text.split('\n')) {
    const open = RegionOpen.exec(line);
    if (open?.[1] !== undefined) {
      current = new Map();
      regions.set(open[1], current);
      continue;
    }
    if (current === undefined) continue;
    if (/^\t\},?\s*$/.test(line)) {
      current = undefined;
      continue;
    }
    for (const m of line.matchAll(PricePair)) current.set(m[1]!, Number(m[2]));
  }
  const priced = [...regions].filter(([, prices]) => prices.size > 0);
  if (priced.length === 0) throw new Error(`${file}: no "region": { "type": price } blocks found`);
  const stamp = GeneratedAt.exec(text)?.[1];
  return { regions: new Map(priced), ...(stamp !== undefined ? { generatedAt: stamp } : {}) };
}

/** The network limits of one type, as `zz_generated.vpclimits.go` lists them. */
export interface VpcLimits {
  /** Interfaces on the default network card: what bounds the VPC CNI's pods. */
  readonly maxENIs: number;
  readonly ipv4PerENI: number;
  readonly hypervisor: string;
  readonly bareMetal: boolean;
}

const LimitsOpen = /^\t"([a-z0-9-]+\.[a-z0-9-]+)": \{\s*$/;
const field = (block: string, name: string): string | undefined =>
  new RegExp(`\\b${name}:\\s*("?)([^",\\n]*)\\1,`).exec(block)?.[2];

/**
 * Reads `zz_generated.vpclimits.go` (`Limits = map[string]*VPCLimits{ "type": { ... } }`). The
 * ENIs counted are those of the card at `DefaultNetworkCardIndex`, as DescribeInstanceTypes'
 * default card gives them to the live provider (p5.48xlarge: 2 of its 64).
 * @throws Error naming the type whose block lacks a field.
 */
export function parseVpcLimits(text: string, file = 'vpclimits table'): Map<string, VpcLimits> {
  const limits = new Map<string, VpcLimits>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const name = LimitsOpen.exec(lines[i]!)?.[1];
    if (name === undefined) continue;
    let end = i + 1;
    while (end < lines.length && !/^\t\},?\s*$/.test(lines[end]!)) end++;
    const block = lines.slice(i + 1, end).join('\n');
    i = end;
    const ipv4 = field(block, 'IPv4PerInterface');
    const interfaces = field(block, 'Interface');
    const defaultCard = Number(field(block, 'DefaultNetworkCardIndex') ?? '0');
    const cards = [
      ...block.matchAll(/MaximumNetworkInterfaces:\s*([0-9]+),\s*NetworkCardIndex:\s*([0-9]+),/g),
    ].map((m) => ({ max: Number(m[1]), index: Number(m[2]) }));
    const card = cards.find((c) => c.index === defaultCard);
    const maxENIs = card?.max ?? (interfaces === undefined ? undefined : Number(interfaces));
    if (ipv4 === undefined || maxENIs === undefined) {
      throw new Error(`${file}: ${name}: no IPv4PerInterface or network interface count`);
    }
    limits.set(name, {
      maxENIs,
      ipv4PerENI: Number(ipv4),
      hypervisor: field(block, 'Hypervisor') ?? '',
      bareMetal: field(block, 'IsBareMetal') === 'true',
    });
  }
  if (limits.size === 0) throw new Error(`${file}: no "type": { ... } limits found`);
  return limits;
}

const BandwidthPair = /^\s*"([a-z0-9-]+\.[a-z0-9-]+)":\s*([0-9]+),/;

/**
 * Reads `zz_generated.bandwidth.go` (`InstanceTypeBandwidthMegabits = map[string]int64{...}`):
 * baseline network bandwidth in Mbps. Types AWS only describes vaguely ("Moderate") appear there
 * as comments and are not returned.
 */
export function parseBandwidth(text: string, file = 'bandwidth table'): Map<string, number> {
  const bandwidth = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = BandwidthPair.exec(line);
    if (m !== null) bandwidth.set(m[1]!, Number(m[2]));
  }
  if (bandwidth.size === 0) throw new Error(`${file}: no "type": megabits entries found`);
  return bandwidth;
}
