import type { PodAffinityTerm } from '../../apis/kubernetes/affinity.js';
import type { LabelSelector, LabelSelectorRequirement } from '../../apis/kubernetes/label-selector.js';
import { matchesLabelSelector } from '../../apis/kubernetes/label-selector.js';
import type { Toleration } from '../../apis/kubernetes/taint.js';
import type { TopologySpreadConstraint } from '../../apis/kubernetes/topology-spread.js';
import type { Requirements } from '../requirements/requirements.js';
import { type NodeFilter, NoNodeFilter, nodeFilterKey } from './node-filter.js';
import type { TopologyGroupSpec, TopologyType } from './topology-group.js';

/** Label every namespace carries with its own name; the one namespace label a snapshot always knows. */
export const NamespaceNameLabel = 'kubernetes.io/metadata.name';

/**
 * Resolves a pod affinity term's namespaces. Namespace objects (and so their labels) are not part
 * of a snapshot, so a namespaceSelector is evaluated against each known namespace's
 * `kubernetes.io/metadata.name` label only: `{}` selects every namespace, a selector on that label
 * selects by name, and any other selector falls back to the term's namespaces list (or the pod's
 * own namespace when that is empty too).
 */
export class NamespaceResolver {
  readonly #known: readonly string[];

  constructor(known: Iterable<string>) {
    this.#known = [...new Set(known)].sort();
  }

  resolve(
    podNamespace: string,
    namespaces: readonly string[] | undefined,
    selector: LabelSelector | undefined,
  ): ReadonlySet<string> | 'all' {
    const listed = namespaces ?? [];
    if (selector === undefined) return new Set(listed.length === 0 ? [podNamespace] : listed);
    const keys = [
      ...Object.keys(selector.matchLabels ?? {}),
      ...(selector.matchExpressions ?? []).map((e) => e.key),
    ];
    if (keys.length === 0) return 'all';
    if (keys.every((k) => k === NamespaceNameLabel)) {
      const out = new Set(listed);
      for (const ns of this.#known)
        if (matchesLabelSelector(selector, { [NamespaceNameLabel]: ns })) out.add(ns);
      return out;
    }
    return new Set(listed.length === 0 ? [podNamespace] : listed);
  }
}

/** A selector with `key In/NotIn [the pod's value]` added for matchLabelKeys / mismatchLabelKeys. */
function withLabelKeys(
  selector: LabelSelector | undefined,
  labels: Readonly<Record<string, string>> | undefined,
  matchKeys: readonly string[] | undefined,
  mismatchKeys: readonly string[] | undefined,
): LabelSelector | undefined {
  if (selector === undefined) return undefined;
  const extra: LabelSelectorRequirement[] = [];
  for (const key of matchKeys ?? []) {
    const v = labels?.[key];
    if (v !== undefined) extra.push({ key, operator: 'In', values: [v] });
  }
  for (const key of mismatchKeys ?? []) {
    const v = labels?.[key];
    if (v !== undefined) extra.push({ key, operator: 'NotIn', values: [v] });
  }
  if (extra.length === 0) return selector;
  return { ...selector, matchExpressions: [...(selector.matchExpressions ?? []), ...extra] };
}

/** The pod-side facts a group spec is built from. */
export interface GroupOwner {
  readonly namespace: string;
  readonly labels: Readonly<Record<string, string>> | undefined;
  readonly tolerations: readonly Toleration[] | undefined;
  /** nodeSelector AND each remaining required node affinity term (ORed), for nodeAffinityPolicy Honor. */
  readonly nodeFilterTerms: readonly Requirements[];
}

/** The group of one topology spread constraint. */
export function spreadSpec(owner: GroupOwner, c: TopologySpreadConstraint): TopologyGroupSpec {
  const honorAffinity = (c.nodeAffinityPolicy ?? 'Honor') === 'Honor';
  const honorTaints = (c.nodeTaintsPolicy ?? 'Ignore') === 'Honor';
  const filter: NodeFilter = {
    terms: honorAffinity ? owner.nodeFilterTerms : undefined,
    tolerations: honorTaints ? (owner.tolerations ?? []) : undefined,
  };
  return {
    type: 'spread',
    key: c.topologyKey,
    namespaces: new Set([owner.namespace]),
    selector: withLabelKeys(c.labelSelector, owner.labels, c.matchLabelKeys, undefined),
    maxSkew: c.maxSkew,
    minDomains: c.minDomains,
    filter,
  };
}

/** The group of one pod (anti-)affinity term. */
export function affinitySpec(
  owner: GroupOwner,
  term: PodAffinityTerm,
  type: Exclude<TopologyType, 'spread'>,
  namespaces: NamespaceResolver,
): TopologyGroupSpec {
  return {
    type,
    key: term.topologyKey,
    namespaces: namespaces.resolve(owner.namespace, term.namespaces, term.namespaceSelector),
    selector: withLabelKeys(term.labelSelector, owner.labels, term.matchLabelKeys, term.mismatchLabelKeys),
    maxSkew: Number.MAX_SAFE_INTEGER,
    minDomains: undefined,
    filter: NoNodeFilter,
  };
}

function canonicalSelector(s: LabelSelector | undefined): unknown {
  if (s === undefined) return null;
  const labels = Object.entries(s.matchLabels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const exprs = (s.matchExpressions ?? [])
    .map((e) => [e.key, e.operator, [...(e.values ?? [])].sort()] as const)
    .sort((a, b) => (a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return [labels, exprs];
}

/** Equal for specs that must share counts. */
export function groupSpecHash(spec: TopologyGroupSpec): string {
  const ns = spec.namespaces === 'all' ? '*' : [...spec.namespaces].sort();
  return JSON.stringify([
    spec.type,
    spec.key,
    ns,
    canonicalSelector(spec.selector),
    spec.maxSkew,
    spec.minDomains ?? null,
    nodeFilterKey(spec.filter),
  ]);
}
