import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import { compileTerm, type TermMatcher } from './selectors.js';

/** kube-scheduler's reasons for InterPodAffinity. */
export const AffinityReasons = {
  Affinity: "node(s) didn't match pod affinity rules",
  AntiAffinity: "node(s) didn't match pod anti-affinity rules",
  ExistingAntiAffinity: "node(s) didn't satisfy existing pods anti-affinity rules",
} as const;

/** A bound pod and the node it is on. */
export interface PlacedPod {
  readonly info: PodInfo;
  readonly node: NodeInfo;
}

/** A pod's required inter-pod (anti-)affinity, evaluated once against the cluster. */
export interface AffinityFilter {
  check(node: NodeInfo): string | undefined;
}

type Domains = Map<string, Set<string>>;

function addDomain(domains: Domains, key: string, value: string | undefined): void {
  if (value === undefined) return;
  const set = domains.get(key);
  if (set === undefined) domains.set(key, new Set([value]));
  else set.add(value);
}

/**
 * InterPodAffinity's filter for required terms:
 * - the existing pods' anti-affinity: no pod whose required anti-affinity term selects this pod
 *   may share the node's domain for that term's key;
 * - the pod's anti-affinity: no pod a term selects may be in the node's domain;
 * - the pod's affinity: for every term, a selected pod must be in the node's domain — unless no
 *   pod anywhere matches any term and the pod matches all of its own terms (the first pod of a
 *   group), in which case the node only needs the terms' keys.
 */
export function affinityFilter(
  pod: PodInfo,
  nodes: readonly NodeInfo[],
  withAntiAffinity: Iterable<PlacedPod>,
  namespaceLabels: (namespace: string) => Readonly<Record<string, string>> | undefined,
): AffinityFilter | undefined {
  const existing: Domains = new Map();
  for (const placed of withAntiAffinity) {
    if (placed.info.key === pod.key) continue;
    for (const term of placed.info.requiredAntiAffinity) {
      const m = compileTerm(term, placed.info.namespace, placed.info.labels, namespaceLabels);
      if (m.matches(pod.namespace, pod.labels))
        addDomain(existing, m.topologyKey, placed.node.labels[m.topologyKey]);
    }
  }
  const compile = (terms: PodInfo['requiredAffinity']): TermMatcher[] =>
    terms.map((t) => compileTerm(t, pod.namespace, pod.labels, namespaceLabels));
  const anti = compile(pod.requiredAntiAffinity);
  const affinity = compile(pod.requiredAffinity);
  if (existing.size === 0 && anti.length === 0 && affinity.length === 0) return undefined;

  const forbidden: Domains = new Map();
  const allowed: Domains[] = affinity.map(() => new Map());
  let affinityMatches = 0;
  if (anti.length > 0 || affinity.length > 0) {
    for (const node of nodes) {
      for (const other of node.pods.values()) {
        if (other.key === pod.key) continue;
        for (const m of anti) {
          if (m.matches(other.namespace, other.labels))
            addDomain(forbidden, m.topologyKey, node.labels[m.topologyKey]);
        }
        affinity.forEach((m, i) => {
          if (!m.matches(other.namespace, other.labels)) return;
          affinityMatches++;
          addDomain(allowed[i]!, m.topologyKey, node.labels[m.topologyKey]);
        });
      }
    }
  }
  const firstOfGroup = affinityMatches === 0 && affinity.every((m) => m.matches(pod.namespace, pod.labels));
  return {
    check(node) {
      for (const [key, values] of existing) {
        const v = node.labels[key];
        if (v !== undefined && values.has(v)) return AffinityReasons.ExistingAntiAffinity;
      }
      for (const [key, values] of forbidden) {
        const v = node.labels[key];
        if (v !== undefined && values.has(v)) return AffinityReasons.AntiAffinity;
      }
      for (const [i, m] of affinity.entries()) {
        const v = node.labels[m.topologyKey];
        if (v === undefined) return AffinityReasons.Affinity;
        if (firstOfGroup) continue;
        if (!allowed[i]!.get(m.topologyKey)?.has(v)) return AffinityReasons.Affinity;
      }
      return undefined;
    },
  };
}
