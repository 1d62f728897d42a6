import { Annotations } from '../../apis/labels.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import { NodePoolHashVersion, nodePoolTemplateHash } from '../../apis/v1/nodepool-hash.js';
import { Requirements } from '../../scheduling/requirements/requirements.js';
import type { ManagedNode } from './managed-node.js';

/** Why a node no longer matches what its NodePool would launch now. */
export interface Drift {
  readonly reason: string;
  /** When it was noticed (the Drifted condition's transition), for ordering; undefined if just now. */
  readonly since: number | undefined;
}

/**
 * Whether the node drifted, checked in this order:
 * - its NodeClaim's `Drifted` condition is True (how providers report drift, e.g. a new image);
 * - the NodeClaim's `karpenter.sh/nodepool-hash` differs from the NodePool template's hash now
 *   (compared only when the NodeClaim has no hash version or nodewright's, as a hash of another
 *   version means something else);
 * - the NodePool's requirements no longer admit the node's labels.
 */
export function nodeDrift(node: ManagedNode, nodePool: NodePool): Drift | undefined {
  const condition = node.nodeClaim?.status?.conditions?.find((c) => c.type === 'Drifted');
  if (condition?.status === 'True') {
    const detail = [condition.reason, condition.message]
      .filter((x) => x !== undefined && x !== '')
      .join(': ');
    const since = Date.parse(condition.lastTransitionTime);
    return {
      reason: `NodeClaim is Drifted${detail === '' ? '' : ` (${detail})`}`,
      since: Number.isNaN(since) ? undefined : since,
    };
  }
  const annotations = node.nodeClaim?.metadata.annotations ?? {};
  const hash = annotations[Annotations.NodePoolHash];
  const version = annotations[Annotations.NodePoolHashVersion];
  if (hash !== undefined && (version === undefined || version === NodePoolHashVersion)) {
    const current = nodePoolTemplateHash(nodePool);
    if (hash !== current) {
      return {
        reason: `NodePool ${nodePool.metadata.name} template changed since launch (${Annotations.NodePoolHash} ${hash}, now ${current})`,
        since: undefined,
      };
    }
  }
  let required: Requirements;
  try {
    required = Requirements.fromNodeSelectorRequirements(nodePool.spec.template.spec.requirements);
  } catch {
    return undefined;
  }
  const conflict = Requirements.fromLabels(node.labels).compatibilityConflict(required);
  if (conflict !== undefined) {
    return {
      reason: `NodePool ${nodePool.metadata.name} requirements no longer match the node's labels: ${conflict.message}`,
      since: undefined,
    };
  }
  return undefined;
}
