import { Labels } from '../../apis/labels.js';
import type { Requirements } from '../requirements/requirements.js';
import type { TaintLike } from '../taints/tolerations.js';
import { toleratesAll } from '../taints/tolerations.js';
import { DomainRegistry } from './domain-registry.js';
import { type GroupScan, type GroupScanMemo, type NodeContribution, scanGroup } from './group-scan.js';
import { groupSpecHash } from './group-specs.js';
import { nodeFilterMatches } from './node-filter.js';
import { TopologyGroup, type TopologyGroupSpec } from './topology-group.js';

/** A place pods already run on (a Node, or an in-flight NodeClaim), as topology sees it. */
export interface TopologyNode {
  /** Its hostname domain. */
  readonly hostname: string;
  readonly labels: Readonly<Record<string, string>>;
  /** Its labels as requirements (for node filters). */
  readonly requirements: Requirements;
  readonly taints: readonly TaintLike[];
  /** False for an in-flight NodeClaim without a Node: its domains come from single-valued requirements. */
  readonly registered: boolean;
}

/** A pod already bound, counted by every group that selects it. */
export interface CountedPod {
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>> | undefined;
  readonly node: TopologyNode;
}

/**
 * The domains NodePools can launch into: per topology key, each value with the taint sets of the
 * NodePools offering it (nodeTaintsPolicy Honor counts a domain only if one of them is tolerated).
 */
export type NodePoolDomains = ReadonlyMap<string, ReadonlyMap<string, readonly (readonly TaintLike[])[]>>;

/** The domain of a node for a key: its label, or for hostname its hostname. */
export function nodeDomain(node: TopologyNode, key: string): string | undefined {
  const v = node.labels[key];
  if (v !== undefined) return v;
  return key === Labels.Hostname ? node.hostname : undefined;
}

/**
 * Topology groups for one solve: interned by spec, counted from the pods already bound, fed with
 * every placement the solver makes. Inverse groups are the required anti-affinity terms of pods
 * (bound or pending): they count where their owners are, and keep selected pods out of those domains.
 */
export class Topology {
  readonly #registries = new Map<string, DomainRegistry>();
  readonly #groups = new Map<string, TopologyGroup>();
  readonly #inverse = new Map<string, TopologyGroup>();
  readonly #all: TopologyGroup[] = [];
  readonly #nodePoolDomains: NodePoolDomains;
  readonly #nodes: readonly TopologyNode[];
  /** The bound pods that count, node by node (each node's list is shared between solves). */
  readonly #pods: readonly (readonly CountedPod[])[];
  readonly #hostnames: number[] = [];
  readonly #memo: GroupScanMemo | undefined;

  /**
   * `memo` keeps each group's scan of the nodes for the next Topology over nearly the same
   * nodes (the same objects but for a few); the groups come out the same with or without it.
   */
  constructor(
    nodePoolDomains: NodePoolDomains,
    nodes: readonly TopologyNode[],
    pods: readonly (readonly CountedPod[])[],
    memo?: GroupScanMemo,
  ) {
    this.#memo = memo;
    this.#nodePoolDomains = nodePoolDomains;
    this.#nodes = nodes;
    this.#pods = pods;
    const hosts = this.registry(Labels.Hostname);
    for (const n of nodes) this.#hostnames.push(hosts.id(n.hostname));
  }

  /** The hostname domain id of the i-th node given to the constructor. */
  hostnameOf(node: number): number {
    return this.#hostnames[node]!;
  }

  registry(key: string): DomainRegistry {
    let r = this.#registries.get(key);
    if (r === undefined) {
      r = new DomainRegistry(key, this.#registries.size);
      this.#registries.set(key, r);
    }
    return r;
  }

  /** How many keys have registries (slots are 0 .. keyCount-1). */
  get keyCount(): number {
    return this.#registries.size;
  }

  /** Every group, forward and inverse, in creation order. */
  get groups(): readonly TopologyGroup[] {
    return this.#all;
  }

  /**
   * The forward group for a spec, created (registered and counted from bound pods) if new;
   * `created` tells the caller to replay its own placements into it.
   */
  group(spec: TopologyGroupSpec): { group: TopologyGroup; created: boolean } {
    return this.#intern(this.#groups, spec, false);
  }

  /** The inverse anti-affinity group for an owner's required anti-affinity term. */
  inverseGroup(spec: TopologyGroupSpec): { group: TopologyGroup; created: boolean } {
    return this.#intern(this.#inverse, spec, true);
  }

  /** A new NodeClaim's hostname: a domain every hostname group can use. */
  registerHostname(name: string): number {
    const id = this.registry(Labels.Hostname).id(name);
    this.#hostnames.push(id);
    for (const g of this.#all) if (g.isHostname) g.register(id);
    return id;
  }

  #intern(
    map: Map<string, TopologyGroup>,
    spec: TopologyGroupSpec,
    inverse: boolean,
  ): { group: TopologyGroup; created: boolean } {
    const hash = groupSpecHash(spec);
    const existing = map.get(hash);
    if (existing !== undefined) return { group: existing, created: false };
    const group = new TopologyGroup(this.#all.length, spec, this.registry(spec.key), hash);
    map.set(hash, group);
    this.#all.push(group);
    this.#registerPoolDomains(group);
    const scan = this.#scan(group, inverse);
    const registry = group.domains;
    for (const domain of scan.registered) group.register(registry.id(domain));
    if (group.isHostname) for (const id of this.#hostnames) group.register(id);
    for (const [domain, pods] of scan.counted) group.recordMany(registry.id(domain), pods);
    return { group, created: true };
  }

  /** The domains the NodePools can launch into that the group's tolerations allow. */
  #registerPoolDomains(g: TopologyGroup): void {
    const spec = g.spec;
    const sources = this.#nodePoolDomains.get(spec.key);
    if (sources === undefined) return;
    for (const [domain, taintSets] of sources) {
      const tolerations = spec.filter.tolerations;
      if (tolerations !== undefined && !taintSets.some((taints) => toleratesAll(taints, tolerations)))
        continue;
      g.register(g.domains.id(domain));
    }
  }

  /**
   * The domains the nodes register for the group (a registered node with the key that passes
   * its node filter) and, for a forward group, where the bound pods it selects count.
   */
  #scan(g: TopologyGroup, inverse: boolean): GroupScan {
    const spec = g.spec;
    const contribution = (i: number): NodeContribution => {
      const n = this.#nodes[i];
      let domain: string | undefined;
      if (n?.registered === true) {
        const d = nodeDomain(n, spec.key);
        if (d !== undefined && nodeFilterMatches(spec.filter, n.taints, n.requirements, false)) domain = d;
      }
      const counted: string[] = [];
      if (!inverse) {
        for (const p of this.#pods[i] ?? []) {
          if (!g.selects(p.namespace, p.labels)) continue;
          const d = this.#boundDomain(p.node, spec.key);
          if (d === undefined) continue;
          if (!nodeFilterMatches(spec.filter, p.node.taints, p.node.requirements, !p.node.registered))
            continue;
          counted.push(d);
        }
      }
      return { domain, counted };
    };
    if (this.#memo === undefined) return scanGroup(this.#nodes, this.#pods, contribution);
    return this.#memo.scan(
      `${inverse ? 'inverse' : 'forward'}\u0000${g.hash}`,
      this.#nodes,
      this.#pods,
      contribution,
    );
  }

  /** Where a bound pod counts for a key: its node's label, or an in-flight claim's single value. */
  #boundDomain(node: TopologyNode, key: string): string | undefined {
    if (node.registered) return nodeDomain(node, key);
    if (key === Labels.Hostname) return node.hostname;
    const r = node.requirements.get(key);
    if (r === undefined || r.complement || r.values.size !== 1) return undefined;
    return r.values.values().next().value;
  }
}
