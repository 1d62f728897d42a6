import { matchesLabelSelector } from '../../../apis/kubernetes/label-selector.js';
import type { TopologySpreadConstraint } from '../../../apis/kubernetes/topology-spread.js';
import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import { withLabelKeys } from './selectors.js';

/** kube-scheduler's reasons for PodTopologySpread. */
export const SpreadReasons = {
  MissingLabel: "node(s) didn't match pod topology spread constraints (missing required label)",
  Skew: "node(s) didn't match pod topology spread constraints",
} as const;

interface ConstraintState {
  readonly topologyKey: string;
  readonly maxSkew: number;
  /** Matching pods per domain value, over the nodes the constraint counts. */
  readonly counts: ReadonlyMap<string, number>;
  readonly minMatch: number;
  readonly selfMatch: number;
}

/** A pod's DoNotSchedule spread constraints, counted once against the cluster. */
export interface SpreadFilter {
  /** The failure reason on this node, or undefined when every constraint holds. */
  check(node: NodeInfo): string | undefined;
}

/**
 * PodTopologySpread's filter for the pod's `DoNotSchedule` constraints (ScheduleAnyway ones
 * only score, and scoring them is not simulated). Counts, per domain of the topology key, the
 * non-terminating pods in the pod's namespace that match the constraint's selector (with
 * matchLabelKeys), on nodes that have every constraint's key and — per nodeAffinityPolicy
 * (default Honor) and nodeTaintsPolicy (default Ignore) — pass the pod's node affinity and
 * tolerate its taints. A node fails when placing the pod there would make
 * `count(domain) + self - min(counts)` exceed maxSkew; `min` is 0 while there are fewer domains
 * than minDomains.
 */
export function spreadFilter(
  pod: PodInfo,
  nodes: readonly NodeInfo[],
  passesNodeAffinity: (node: NodeInfo) => boolean,
  toleratesTaints: (node: NodeInfo) => boolean,
): SpreadFilter | undefined {
  const constraints = (pod.pod.spec.topologySpreadConstraints ?? []).filter(
    (c: TopologySpreadConstraint) => c.whenUnsatisfiable === 'DoNotSchedule',
  );
  if (constraints.length === 0) return undefined;
  const keys = constraints.map((c) => c.topologyKey);
  const states: ConstraintState[] = constraints.map((c) => {
    const selector = withLabelKeys(c.labelSelector, pod.labels, c.matchLabelKeys);
    const counts = new Map<string, number>();
    for (const node of nodes) {
      if (!keys.every((k) => node.labels[k] !== undefined)) continue;
      if ((c.nodeAffinityPolicy ?? 'Honor') === 'Honor' && !passesNodeAffinity(node)) continue;
      if ((c.nodeTaintsPolicy ?? 'Ignore') === 'Honor' && !toleratesTaints(node)) continue;
      const domain = node.labels[c.topologyKey]!;
      let n = counts.get(domain) ?? 0;
      for (const other of node.pods.values()) {
        if (other.terminating || other.namespace !== pod.namespace) continue;
        if (matchesLabelSelector(selector, other.labels)) n++;
      }
      counts.set(domain, n);
    }
    const minDomains = c.minDomains ?? 1;
    const minMatch = counts.size < minDomains ? 0 : Math.min(...counts.values());
    return {
      topologyKey: c.topologyKey,
      maxSkew: c.maxSkew,
      counts,
      minMatch,
      selfMatch: matchesLabelSelector(selector, pod.labels) ? 1 : 0,
    };
  });
  return {
    check(node) {
      for (const s of states) {
        const domain = node.labels[s.topologyKey];
        if (domain === undefined) return SpreadReasons.MissingLabel;
        const skew = (s.counts.get(domain) ?? 0) + s.selfMatch - s.minMatch;
        if (skew > s.maxSkew) return SpreadReasons.Skew;
      }
      return undefined;
    },
  };
}
