import type { Toleration } from '../../apis/kubernetes/taint.js';
import {
  AllowUndefinedWellKnownLabels,
  type CompatibilityOptions,
  type Requirements,
} from '../requirements/requirements.js';
import { type TaintLike, toleratesAll } from '../taints/tolerations.js';

/**
 * Which nodes a topology spread constraint counts (Kubernetes' node inclusion policies): with
 * nodeAffinityPolicy Honor only nodes matching the pod's nodeSelector and one of its required
 * node affinity terms; with nodeTaintsPolicy Honor only nodes whose taints the pod tolerates.
 */
export interface NodeFilter {
  /** ORed requirement sets a node must be compatible with; undefined when affinity is ignored. */
  readonly terms: readonly Requirements[] | undefined;
  /** Tolerations the node's taints must all be tolerated by; undefined when taints are ignored. */
  readonly tolerations: readonly Toleration[] | undefined;
}

/** Counts every node (pod affinity and anti-affinity, and spread with both policies Ignore). */
export const NoNodeFilter: NodeFilter = Object.freeze({ terms: undefined, tolerations: undefined });

/**
 * Whether a node (or a NodeClaim, with `allowUndefined` so well-known labels it will get count as
 * present — core's, or those `wellKnown` allows) passes the filter.
 */
export function nodeFilterMatches(
  filter: NodeFilter,
  taints: readonly TaintLike[],
  requirements: Requirements,
  allowUndefined: boolean,
  wellKnown: CompatibilityOptions = AllowUndefinedWellKnownLabels,
): boolean {
  if (filter.terms !== undefined && filter.terms.length > 0) {
    const options = allowUndefined ? wellKnown : undefined;
    let any = false;
    for (const term of filter.terms) {
      if (requirements.isCompatible(term, options)) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  return filter.tolerations === undefined || toleratesAll(taints, filter.tolerations);
}

/** A string equal for equal filters, for interning topology groups. */
export function nodeFilterKey(filter: NodeFilter): string {
  const terms = filter.terms === undefined ? '-' : filter.terms.map((t) => t.toString()).join('|');
  const tolerations = filter.tolerations === undefined ? '-' : JSON.stringify(filter.tolerations);
  return `${terms}#${tolerations}`;
}
