import type { LabelSelector } from '../../apis/kubernetes/label-selector.js';
import { matchesLabelSelector } from '../../apis/kubernetes/label-selector.js';
import type { Requirement } from '../requirements/requirement.js';
import type { DomainRegistry } from './domain-registry.js';
import type { NodeFilter } from './node-filter.js';

export type TopologyType = 'spread' | 'affinity' | 'anti-affinity';

/** Everything that identifies a topology group; equal specs share one group (and its counts). */
export interface TopologyGroupSpec {
  readonly type: TopologyType;
  readonly key: string;
  /** Namespaces whose pods the selector looks at; 'all' for every namespace. */
  readonly namespaces: ReadonlySet<string> | 'all';
  /** Absent selects no pod (Kubernetes' nil selector). */
  readonly selector: LabelSelector | undefined;
  /** Spread only; MAX_SKEW_NONE for (anti-)affinity. */
  readonly maxSkew: number;
  readonly minDomains: number | undefined;
  /** Spread only: which nodes count. */
  readonly filter: NodeFilter;
}

/** Sentinel host domain: a NodeClaim being tried for the first time (a new domain with no pods). */
export const FreshDomain = -2;

/** The hostname key is special: a new node is always a new, empty domain. */
export const HostnameKey = 'kubernetes.io/hostname';

const MAX_INT32 = 2147483647;

/** Domains a bit mask can describe (see {@link TopologyGroup.allowedMask}). */
export const MASK_DOMAINS = 30;

/**
 * A topology spread constraint or pod (anti-)affinity term, with the number of selected pods per
 * domain of its key. Counts only grow during a solve. Domains become "registered" when a NodePool,
 * node or NodeClaim can provide them (or a counted pod lives there); only registered domains are
 * candidates, as in Karpenter.
 */
export class TopologyGroup {
  readonly id: number;
  readonly spec: TopologyGroupSpec;
  readonly domains: DomainRegistry;
  readonly hash: string;
  readonly isHostname: boolean;
  #counts = new Int32Array(8);
  #registered = new Uint8Array(8);
  /** Domains whose count is positive, in the order they became so. */
  readonly #nonEmpty: number[] = [];
  #version = 0;
  #minVersion = -1;
  #minFor: Requirement | undefined | null = null;
  #min = 0;

  constructor(id: number, spec: TopologyGroupSpec, domains: DomainRegistry, hash: string) {
    this.id = id;
    this.spec = spec;
    this.domains = domains;
    this.hash = hash;
    this.isHostname = spec.key === HostnameKey;
  }

  /** Whether the group counts pods with these labels in this namespace. */
  selects(namespace: string, labels: Readonly<Record<string, string>> | undefined): boolean {
    const ns = this.spec.namespaces;
    if (ns !== 'all' && !ns.has(namespace)) return false;
    return matchesLabelSelector(this.spec.selector, labels);
  }

  count(domain: number): number {
    return domain < this.#counts.length ? this.#counts[domain]! : 0;
  }

  isRegistered(domain: number): boolean {
    return domain < this.#registered.length && this.#registered[domain] === 1;
  }

  register(domain: number): void {
    this.#grow(domain);
    if (this.#registered[domain] === 0) {
      this.#registered[domain] = 1;
      this.#version++;
    }
  }

  /** One more selected pod in the domain (which becomes registered). */
  record(domain: number): void {
    this.#grow(domain);
    this.#registered[domain] = 1;
    if (this.#counts[domain]!++ === 0) this.#nonEmpty.push(domain);
    this.#version++;
  }

  /** `pods` more selected pods in the domain: `record` that many times over. */
  recordMany(domain: number, pods: number): void {
    if (pods <= 0) return;
    this.#grow(domain);
    this.#registered[domain] = 1;
    if (this.#counts[domain] === 0) this.#nonEmpty.push(domain);
    this.#counts[domain]! += pods;
    this.#version++;
  }

  /** Domains whose count is positive, in the order they became so. */
  nonEmptyDomains(): readonly number[] {
    return this.#nonEmpty;
  }

  /** Changes whenever a count or registration does, so callers can cache derived values. */
  get version(): number {
    return this.#version;
  }

  #podHas(podDomains: Requirement | undefined, d: number): boolean {
    return podDomains === undefined || podDomains.has(this.domains.name(d));
  }

  /**
   * The smallest count over registered domains the pod's own requirements allow (0 for hostname,
   * where a new node is always possible, and 0 while fewer than minDomains such domains exist).
   */
  minCount(podDomains: Requirement | undefined): number {
    if (this.isHostname) return 0;
    if (this.#minVersion === this.#version && this.#minFor === podDomains) return this.#min;
    let min = MAX_INT32;
    let supported = 0;
    const n = Math.min(this.domains.size, this.#registered.length);
    for (let d = 0; d < n; d++) {
      if (this.#registered[d] === 0 || !this.#podHas(podDomains, d)) continue;
      supported++;
      const c = this.#counts[d]!;
      if (c < min) min = c;
    }
    const minDomains = this.spec.minDomains;
    if (minDomains !== undefined && supported < minDomains) min = 0;
    this.#minVersion = this.#version;
    this.#minFor = podDomains;
    this.#min = min;
    return min;
  }

  /**
   * The domains, among those the node allows, where the pod may go; written to `out`, returning
   * how many. `host` is the node's hostname domain (or {@link FreshDomain}) and is used instead of
   * `nodeDomains` for the hostname key. `self` says whether the group selects the pod itself.
   *
   * - spread: the single least-populated allowed domain whose count (plus the pod, if it selects
   *   itself) stays within maxSkew of the minimum; ties go to the first domain by name.
   * - affinity: domains already holding a selected pod; if none exists anywhere and the pod
   *   selects itself, the first domain the pod and node allow (bootstrapping). Unlike Karpenter, a
   *   selected pod outside the pod's allowed domains still rules bootstrapping out, as in
   *   kube-scheduler, so the pod is never put where it could not be bound.
   * - anti-affinity: domains holding no selected pod.
   */
  allowedDomains(
    self: boolean,
    podDomains: Requirement | undefined,
    nodeDomains: Requirement | undefined,
    host: number,
    out: number[],
  ): number {
    out.length = 0;
    switch (this.spec.type) {
      case 'spread':
        return this.#spread(self, podDomains, nodeDomains, host, out);
      case 'affinity':
        return this.#affinity(self, podDomains, nodeDomains, host, out);
      default:
        return this.#antiAffinity(podDomains, nodeDomains, host, out);
    }
  }

  /**
   * For keys with at most {@link MASK_DOMAINS} domains: bit d is set when a node known to be in
   * exactly domain d would be allowed by {@link allowedDomains}. Lets the solver turn away nodes
   * pinned to the wrong domain without building anything.
   */
  allowedMask(self: boolean, podDomains: Requirement | undefined): number {
    const n = Math.min(this.domains.size, this.#registered.length, MASK_DOMAINS);
    let mask = 0;
    switch (this.spec.type) {
      case 'spread': {
        const limit = this.minCount(podDomains) + this.spec.maxSkew - (self ? 1 : 0);
        for (let d = 0; d < n; d++)
          if (this.#registered[d] === 1 && this.#counts[d]! <= limit) mask |= 1 << d;
        return mask;
      }
      case 'affinity': {
        const anywhere = this.#nonEmpty.length > 0;
        if (!anywhere && !self) return 0;
        for (let d = 0; d < n; d++) {
          if (this.#registered[d] === 0 || !this.#podHas(podDomains, d)) continue;
          if (!anywhere || this.#counts[d]! > 0) mask |= 1 << d;
        }
        return mask;
      }
      default:
        for (let d = 0; d < n; d++) {
          if (this.#registered[d] === 1 && this.#counts[d] === 0 && this.#podHas(podDomains, d))
            mask |= 1 << d;
        }
        return mask;
    }
  }

  #spread(
    self: boolean,
    podDomains: Requirement | undefined,
    nodeDomains: Requirement | undefined,
    host: number,
    out: number[],
  ): number {
    const min = this.minCount(podDomains);
    const skew = this.spec.maxSkew;
    const add = self ? 1 : 0;
    if (this.isHostname) {
      if (host === FreshDomain) {
        if (add - min <= skew) out.push(host);
      } else if (this.isRegistered(host) && this.count(host) + add - min <= skew) {
        out.push(host);
      }
      return out.length;
    }
    let best = -1;
    let bestCount = MAX_INT32;
    const ids = this.domains.sortedIds();
    for (let i = 0; i < ids.length; i++) {
      const d = ids[i]!;
      if (!this.isRegistered(d)) continue;
      if (nodeDomains !== undefined && !nodeDomains.has(this.domains.name(d))) continue;
      const c = this.#counts[d]! + add;
      if (c - min <= skew && c < bestCount) {
        best = d;
        bestCount = c;
      }
    }
    if (best >= 0) out.push(best);
    return out.length;
  }

  #affinity(
    self: boolean,
    podDomains: Requirement | undefined,
    nodeDomains: Requirement | undefined,
    host: number,
    out: number[],
  ): number {
    // Kubernetes lets a pod start its own group only while no selected pod exists anywhere, even
    // outside the domains the pod may use (Karpenter looks only within them).
    const anywhere = this.#nonEmpty.length > 0;
    if (anywhere) {
      if (this.isHostname) {
        if (host !== FreshDomain && this.count(host) > 0 && this.#podHas(podDomains, host)) out.push(host);
        return out.length;
      }
      for (const d of this.#nonEmpty) {
        if (!this.isRegistered(d) || !this.#podHas(podDomains, d)) continue;
        if (nodeDomains === undefined || nodeDomains.has(this.domains.name(d))) out.push(d);
      }
      return out.length;
    }
    if (!self) return 0;
    // Nobody to be near yet and the pod matches itself: it may start the group anywhere it can go.
    if (this.isHostname) {
      if (host === FreshDomain || (this.isRegistered(host) && this.#podHas(podDomains, host))) out.push(host);
      return out.length;
    }
    const ids = this.domains.sortedIds();
    for (let i = 0; i < ids.length; i++) {
      const d = ids[i]!;
      if (!this.isRegistered(d) || !this.#podHas(podDomains, d)) continue;
      if (nodeDomains === undefined || nodeDomains.has(this.domains.name(d))) {
        out.push(d);
        break;
      }
    }
    return out.length;
  }

  #antiAffinity(
    podDomains: Requirement | undefined,
    nodeDomains: Requirement | undefined,
    host: number,
    out: number[],
  ): number {
    if (this.isHostname) {
      if (host === FreshDomain || (this.isRegistered(host) && this.count(host) === 0)) out.push(host);
      return out.length;
    }
    const ids = this.domains.sortedIds();
    for (let i = 0; i < ids.length; i++) {
      const d = ids[i]!;
      if (!this.isRegistered(d) || this.#counts[d]! > 0 || !this.#podHas(podDomains, d)) continue;
      if (nodeDomains === undefined || nodeDomains.has(this.domains.name(d))) out.push(d);
    }
    return out.length;
  }

  #grow(domain: number): void {
    if (domain < this.#counts.length) return;
    let n = this.#counts.length;
    while (n <= domain) n *= 2;
    const counts = new Int32Array(n);
    counts.set(this.#counts);
    this.#counts = counts;
    const reg = new Uint8Array(n);
    reg.set(this.#registered);
    this.#registered = reg;
  }

  /** e.g. `topology spread maxSkew 1 on topology.kubernetes.io/zone`. */
  describe(): string {
    const s = this.spec;
    switch (s.type) {
      case 'spread':
        return `topology spread maxSkew ${s.maxSkew} on ${s.key}${s.minDomains === undefined ? '' : ` (minDomains ${s.minDomains})`}`;
      case 'affinity':
        return `pod affinity on ${s.key}`;
      default:
        return `pod anti-affinity on ${s.key}`;
    }
  }
}
