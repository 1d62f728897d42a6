import { Labels } from '../../apis/labels.js';
import type { Requirements } from '../requirements/requirements.js';
import type { TaintLike } from '../taints/tolerations.js';
import { toleratesAll } from '../taints/tolerations.js';
import { DomainRegistry } from './domain-registry.js';
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

  constructor(
    nodePoolDomains: NodePoolDomains,
    nodes: readonly TopologyNode[],
    pods: readonly (readonly CountedPod[])[],
  ) {
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
    this.#registerDomains(group);
    if (!inverse) this.#countBound(group);
    return { group, created: true };
  }

  #registerDomains(g: TopologyGroup): void {
    const spec = g.spec;
    const registry = g.domains;
    const sources = this.#nodePoolDomains.get(spec.key);
    if (sources !== undefined) {
      for (const [domain, taintSets] of sources) {
        const tolerations = spec.filter.tolerations;
        if (tolerations !== undefined && !taintSets.some((taints) => toleratesAll(taints, tolerations)))
          continue;
        g.register(registry.id(domain));
      }
    }
    for (const n of this.#nodes) {
      if (!n.registered) continue;
      const domain = nodeDomain(n, spec.key);
      if (domain === undefined) continue;
      if (!nodeFilterMatches(spec.filter, n.taints, n.requirements, false)) continue;
      g.register(registry.id(domain));
    }
    if (g.isHostname) for (const id of this.#hostnames) g.register(id);
  }

  #countBound(g: TopologyGroup): void {
    const spec = g.spec;
    for (const list of this.#pods) {
      for (const p of list) {
        if (!g.selects(p.namespace, p.labels)) continue;
        const domain = this.#boundDomain(p.node, spec.key);
        if (domain === undefined) continue;
        if (!nodeFilterMatches(spec.filter, p.node.taints, p.node.requirements, !p.node.registered)) continue;
        g.record(g.domains.id(domain));
      }
    }
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
