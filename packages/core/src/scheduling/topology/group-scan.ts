import type { CountedPod, TopologyNode } from './topology.js';

/** What one node adds to a group: the domain it registers, and the domains of its counted pods. */
export interface NodeContribution {
  /** The domain the node registers, or undefined (no label for the key, filtered out, not registered). */
  readonly domain: string | undefined;
  /** One domain per bound pod of the node the group counts, in the node's pod order. */
  readonly counted: readonly string[];
}

/**
 * A group's scan over a solve's nodes: the domains the nodes register, each once and in the
 * order a scan from the first node meets them, and the bound pods counted per domain, in the
 * order each domain's first pod is met. Replaying it (register in that order, then record in that
 * order) leaves a group and its registry exactly as a pod-by-pod scan would.
 */
export interface GroupScan {
  readonly registered: readonly string[];
  readonly counted: readonly (readonly [domain: string, pods: number])[];
}

interface Base {
  readonly nodes: readonly TopologyNode[];
  readonly pods: readonly (readonly CountedPod[])[];
  /** Per node, its domain's code (-1 for none). */
  readonly domainAt: Int32Array;
  /** Per node, its counted pods' domain codes. */
  readonly countedAt: readonly (readonly number[])[];
  readonly names: string[];
  readonly codes: Map<string, number>;
}

const NoCodes: readonly number[] = Object.freeze([]);

/** At most this many groups' scans are kept; the oldest goes first. */
const MaxBases = 128;

/**
 * Group scans kept between solves. A disruption pass solves once per candidate over the same
 * nodes but for the one or two whose pods it takes away, and every solve used to scan every bound
 * pod for each topology group again (a spread over zones on 500 nodes: a thousand selector
 * matches per solve). A scan here recomputes only the nodes that are not the same objects (node
 * and pod list) as in the scan it starts from, and combines the rest from there with integer
 * work. Keyed by the caller's group key; a solve's nodes must be those objects, unmodified.
 */
export class GroupScanMemo {
  readonly #bases = new Map<string, Base>();

  /**
   * The scan of `nodes` and their `pods` for the group keyed `key`, asking `contribution` only
   * for nodes that differ from the kept scan (or for every node when too many differ, when the
   * node count changed, or on first use).
   */
  scan(
    key: string,
    nodes: readonly TopologyNode[],
    pods: readonly (readonly CountedPod[])[],
    contribution: (node: number) => NodeContribution,
  ): GroupScan {
    const base = this.#bases.get(key);
    const reused = base === undefined ? undefined : patched(base, nodes, pods, contribution);
    if (reused !== undefined) return replay(reused);
    const fresh = scanAll(nodes, pods, contribution);
    if (this.#bases.size >= MaxBases && !this.#bases.has(key)) {
      const oldest = this.#bases.keys().next().value;
      if (oldest !== undefined) this.#bases.delete(oldest);
    }
    this.#bases.set(key, fresh);
    return replay(fresh);
  }
}

/** A scan with no memo: every node asked. */
export function scanGroup(
  nodes: readonly TopologyNode[],
  pods: readonly (readonly CountedPod[])[],
  contribution: (node: number) => NodeContribution,
): GroupScan {
  return replay(scanAll(nodes, pods, contribution));
}

function codeOf(base: { names: string[]; codes: Map<string, number> }, name: string): number {
  let code = base.codes.get(name);
  if (code === undefined) {
    code = base.names.length;
    base.names.push(name);
    base.codes.set(name, code);
  }
  return code;
}

function encode(
  base: { names: string[]; codes: Map<string, number> },
  c: NodeContribution,
): { domain: number; counted: readonly number[] } {
  return {
    domain: c.domain === undefined ? -1 : codeOf(base, c.domain),
    counted: c.counted.length === 0 ? NoCodes : c.counted.map((d) => codeOf(base, d)),
  };
}

function scanAll(
  nodes: readonly TopologyNode[],
  pods: readonly (readonly CountedPod[])[],
  contribution: (node: number) => NodeContribution,
): Base {
  const coder = { names: [] as string[], codes: new Map<string, number>() };
  const n = Math.max(nodes.length, pods.length);
  const domainAt = new Int32Array(n);
  const countedAt: (readonly number[])[] = [];
  for (let i = 0; i < n; i++) {
    const { domain, counted } = encode(coder, contribution(i));
    domainAt[i] = domain;
    countedAt.push(counted);
  }
  return { nodes, pods, domainAt, countedAt, ...coder };
}

/** The base with the differing nodes recomputed, or undefined when it is not worth it. */
function patched(
  base: Base,
  nodes: readonly TopologyNode[],
  pods: readonly (readonly CountedPod[])[],
  contribution: (node: number) => NodeContribution,
): Base | undefined {
  if (base.nodes.length !== nodes.length || base.pods.length !== pods.length) return undefined;
  const n = Math.max(nodes.length, pods.length);
  const differ: number[] = [];
  for (let i = 0; i < n; i++) {
    if (base.nodes[i] === nodes[i] && base.pods[i] === pods[i]) continue;
    differ.push(i);
    if (differ.length * 4 > n) return undefined;
  }
  if (differ.length === 0) return base;
  // The kept base stays as it was: each later solve differs from it in its own few nodes.
  const domainAt = base.domainAt.slice();
  const countedAt = base.countedAt.slice();
  for (const i of differ) {
    const { domain, counted } = encode(base, contribution(i));
    domainAt[i] = domain;
    countedAt[i] = counted;
  }
  return { nodes, pods, domainAt, countedAt, names: base.names, codes: base.codes };
}

function replay(scan: Base): GroupScan {
  const { names } = scan;
  const seen = new Uint8Array(names.length);
  const registered: string[] = [];
  for (const code of scan.domainAt) {
    if (code < 0 || seen[code] === 1) continue;
    seen[code] = 1;
    registered.push(names[code]!);
  }
  const totals = new Int32Array(names.length);
  const order: number[] = [];
  for (const codes of scan.countedAt) {
    for (const code of codes) if (totals[code]!++ === 0) order.push(code);
  }
  return { registered, counted: order.map((code) => [names[code]!, totals[code]!] as const) };
}
