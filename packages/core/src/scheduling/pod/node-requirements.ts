import type { PreferredSchedulingTerm } from '../../apis/kubernetes/affinity.js';
import type { NodeSelectorTerm } from '../../apis/kubernetes/node-selector.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { Requirements } from '../requirements/requirements.js';

/** The requirements of one node selector term (its matchExpressions; matchFields are not labels). */
export function nodeSelectorTermRequirements(term: NodeSelectorTerm): Requirements {
  return Requirements.fromNodeSelectorRequirements(term.matchExpressions);
}

/** The required node affinity terms of a pod (ORed), or undefined when it has none. */
export function requiredNodeAffinityTerms(pod: Pick<Pod, 'spec'>): readonly NodeSelectorTerm[] | undefined {
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  return terms === undefined || terms.length === 0 ? undefined : terms;
}

/** Preferred node affinity terms, heaviest first (stable among equal weights). */
export function preferredNodeAffinityTerms(pod: Pick<Pod, 'spec'>): PreferredSchedulingTerm[] {
  const terms = pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  return [...terms].sort((a, b) => b.weight - a.weight);
}

/**
 * The node requirements a pod states, as Karpenter builds them: its nodeSelector, AND the first of
 * the remaining required node affinity terms (later terms are tried by relaxation), AND, unless
 * `strict`, the heaviest preferred term (treated as required until relaxed).
 *
 * @throws RequirementError for an expression the algebra cannot interpret.
 */
export function podNodeRequirements(
  nodeSelector: Readonly<Record<string, string>> | undefined,
  requiredTerms: readonly NodeSelectorTerm[] | undefined,
  preferredTerms: readonly PreferredSchedulingTerm[],
  strict: boolean,
): Requirements {
  const out = Requirements.fromLabels(nodeSelector);
  if (!strict && preferredTerms.length > 0)
    out.addAll(nodeSelectorTermRequirements(preferredTerms[0]!.preference));
  if (requiredTerms !== undefined && requiredTerms.length > 0)
    out.addAll(nodeSelectorTermRequirements(requiredTerms[0]!));
  return out;
}
