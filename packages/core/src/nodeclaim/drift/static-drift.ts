import { Annotations } from '../../apis/labels.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import { NodePoolHashVersion, nodePoolTemplateHash } from '../../apis/v1/nodepool-hash.js';
import { normalizeLabelKey } from '../../scheduling/requirements/label-keys.js';
import { AllowUndefinedWellKnownLabels, Requirements } from '../../scheduling/requirements/requirements.js';

/** The `Drifted` condition reasons core decides itself; provider drift uses the provider's reason. */
export const StaticDriftReasons = {
  /** The NodePool template (its hash) changed since the claim was launched. */
  NodePoolDrifted: 'NodePoolDrifted',
  /** The NodePool's requirements no longer admit the node's labels. */
  RequirementsDrifted: 'RequirementsDrifted',
} as const;
export type StaticDriftReason = (typeof StaticDriftReasons)[keyof typeof StaticDriftReasons];

/** A drift core found by comparing a node with its NodePool: a condition reason and why, for people. */
export interface StaticDrift {
  readonly reason: StaticDriftReason;
  readonly message: string;
}

/**
 * The labels drift compares with NodePool requirements: the NodeClaim's, overridden by its
 * Node's where it has registered (the Node's are what pods are scheduled against).
 */
export function driftLabels(
  claimLabels: Readonly<Record<string, string>> | undefined,
  nodeLabels: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  return { ...(claimLabels ?? {}), ...(nodeLabels ?? {}) };
}

/**
 * What static drift compares nodes with, derived from a NodePool once for all its nodes: its
 * template hash and its parsed requirements (undefined when they do not parse). A disruption pass
 * judges every node of a pool against the same one; hashing the template per node was most of
 * the cost of judging a 500-node fleet.
 */
export interface DriftBasis {
  readonly name: string;
  readonly hash: string;
  readonly required: Requirements | undefined;
}

/** The basis `staticDrift` compares a pool's nodes with (see DriftBasis). */
export function driftBasis(nodePool: Pick<NodePool, 'metadata' | 'spec'>): DriftBasis {
  let required: Requirements | undefined;
  try {
    required = Requirements.fromNodeSelectorRequirements(nodePool.spec.template.spec.requirements);
  } catch {
    required = undefined;
  }
  return { name: nodePool.metadata.name ?? '', hash: nodePoolTemplateHash(nodePool), required };
}

/**
 * Whether a node drifted from `nodePool` (parsed, so defaults are applied) — the one definition
 * both the `nodeclaim.disruption` controller (which writes the `Drifted` condition) and the
 * disruption candidates (which read it, and fall back to this when it is not written yet) use:
 * 1. NodePoolDrifted: the claim's `karpenter.sh/nodepool-hash` differs from the template's hash
 *    now. Compared only when the claim's `karpenter.sh/nodepool-hash-version` is absent or
 *    nodewright's: a hash of another version (Karpenter's) means something else, and
 *    `nodepool.hash` re-stamps such claims instead.
 * 2. RequirementsDrifted: the pool's requirements conflict with `labels` (see driftLabels).
 *    Well-known labels the node lacks are allowed, as upstream; requirements that do not parse
 *    are not drift (validation reports them on the NodePool).
 * Undefined when neither holds. `basis`, when given, must be `driftBasis(nodePool)`.
 */
export function staticDrift(
  claimAnnotations: Readonly<Record<string, string>> | undefined,
  labels: Readonly<Record<string, string>>,
  nodePool: Pick<NodePool, 'metadata' | 'spec'>,
  basis: DriftBasis = driftBasis(nodePool),
): StaticDrift | undefined {
  const { name, required } = basis;
  const hash = claimAnnotations?.[Annotations.NodePoolHash];
  const version = claimAnnotations?.[Annotations.NodePoolHashVersion];
  if (hash !== undefined && (version === undefined || version === NodePoolHashVersion)) {
    if (hash !== basis.hash) {
      return {
        reason: StaticDriftReasons.NodePoolDrifted,
        message: `NodePool ${name} template changed since launch (${Annotations.NodePoolHash} ${hash}, now ${basis.hash})`,
      };
    }
  }
  if (required === undefined) return undefined;
  // Only the keys the pool requires can conflict; a node carries many more labels.
  const relevant: Record<string, string> = {};
  for (const [key, value] of Object.entries(labels))
    if (required.get(normalizeLabelKey(key)) !== undefined) relevant[key] = value;
  const conflict = Requirements.fromLabels(relevant).compatibilityConflict(
    required,
    AllowUndefinedWellKnownLabels,
  );
  if (conflict === undefined) return undefined;
  return {
    reason: StaticDriftReasons.RequirementsDrifted,
    message: `NodePool ${name} requirements no longer match the node's labels: ${conflict.message}`,
  };
}
