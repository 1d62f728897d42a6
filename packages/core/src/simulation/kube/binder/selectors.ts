import type { PodAffinityTerm } from '../../../apis/kubernetes/affinity.js';
import type { LabelSelector } from '../../../apis/kubernetes/label-selector.js';
import { matchesLabelSelector } from '../../../apis/kubernetes/label-selector.js';

/**
 * A selector extended by `matchLabelKeys` (key In [owner's value]) and `mismatchLabelKeys`
 * (key NotIn [owner's value]); keys the owner lacks add nothing. An absent selector stays
 * absent (it selects nothing).
 */
export function withLabelKeys(
  selector: LabelSelector | undefined,
  ownerLabels: Readonly<Record<string, string>>,
  matchLabelKeys: readonly string[] | undefined,
  mismatchLabelKeys: readonly string[] | undefined = undefined,
): LabelSelector | undefined {
  if (selector === undefined) return undefined;
  const extra = [
    ...(matchLabelKeys ?? []).flatMap((key) =>
      ownerLabels[key] === undefined ? [] : [{ key, operator: 'In' as const, values: [ownerLabels[key]!] }],
    ),
    ...(mismatchLabelKeys ?? []).flatMap((key) =>
      ownerLabels[key] === undefined
        ? []
        : [{ key, operator: 'NotIn' as const, values: [ownerLabels[key]!] }],
    ),
  ];
  if (extra.length === 0) return selector;
  return { ...selector, matchExpressions: [...(selector.matchExpressions ?? []), ...extra] };
}

/** Which pods a pod (anti-)affinity term selects, from the point of view of its owner. */
export interface TermMatcher {
  readonly topologyKey: string;
  matches(namespace: string, labels: Readonly<Record<string, string>>): boolean;
}

/**
 * Compiles a term: its selector (with label keys resolved against the owner) and namespaces —
 * the listed ones plus those `namespaceSelector` selects (`{}` selects all), or the owner's own
 * namespace when neither is given.
 */
export function compileTerm(
  term: PodAffinityTerm,
  ownerNamespace: string,
  ownerLabels: Readonly<Record<string, string>>,
  namespaceLabels: (namespace: string) => Readonly<Record<string, string>> | undefined,
): TermMatcher {
  const selector = withLabelKeys(
    term.labelSelector,
    ownerLabels,
    term.matchLabelKeys,
    term.mismatchLabelKeys,
  );
  const listed = new Set(term.namespaces ?? []);
  const nsSelector = term.namespaceSelector;
  const ownOnly = listed.size === 0 && nsSelector === undefined;
  const inNamespace = (ns: string): boolean => {
    if (ownOnly) return ns === ownerNamespace;
    if (listed.has(ns)) return true;
    return nsSelector !== undefined && matchesLabelSelector(nsSelector, namespaceLabels(ns) ?? {});
  };
  return {
    topologyKey: term.topologyKey,
    matches: (namespace, labels) => inNamespace(namespace) && matchesLabelSelector(selector, labels),
  };
}
