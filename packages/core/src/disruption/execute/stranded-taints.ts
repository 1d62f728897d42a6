import type { Node } from '../../apis/kubernetes/node.js';
import { Taints } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { isTaint } from '../../scheduling/taints/tolerations.js';

/** What decides whether a node's `karpenter.sh/disrupted` taint still belongs to a command. */
export interface StrandedTaintInput {
  readonly nodes: readonly Node[];
  readonly nodeClaims: readonly NodeClaim[];
  /** Whether the command in flight (if any) holds the node as a candidate. */
  readonly held: (nodeName: string) => boolean;
  /** Whether the node or its NodeClaim is marked for deletion in cluster state. */
  readonly marked: (name: string) => boolean;
}

/**
 * Nodes whose `karpenter.sh/disrupted` taint no command owns any more: the controller that
 * tainted them crashed, lost its Lease or was stopped mid-command, so nothing will ever replace
 * or untaint them. A node is left alone while the command in flight holds it, and once it (or
 * its NodeClaim) is being deleted or marked for deletion — a terminated command's candidates keep
 * the taint while they drain, as in Karpenter, which untaints every node that is neither in its
 * orchestration queue nor deleted.
 */
export function strandedDisruptionTaints(input: StrandedTaintInput): string[] {
  // Built only when some node is tainted and not held: every disruption reconcile asks, and
  // almost always no node qualifies, so indexing every claim each time was wasted.
  let claimOf: Map<string, NodeClaim> | undefined;
  const stranded: string[] = [];
  for (const node of input.nodes) {
    const name = node.metadata.name;
    if (!(node.spec.taints ?? []).some((t) => isTaint(t, Taints.Disrupted))) continue;
    if (input.held(name) || input.marked(name) || node.metadata.deletionTimestamp !== undefined) continue;
    claimOf ??= claimIndex(input.nodeClaims);
    const claim = claimOf.get(name) ?? claimOf.get(`id:${node.spec.providerID ?? ''}`);
    if (claim !== undefined) {
      if (claim.metadata.deletionTimestamp !== undefined) continue;
      if (input.marked(claim.metadata.name ?? '')) continue;
    }
    stranded.push(name);
  }
  return stranded.sort();
}

/** Claims by node name and by `id:` + provider ID. */
function claimIndex(claims: readonly NodeClaim[]): Map<string, NodeClaim> {
  const claimOf = new Map<string, NodeClaim>();
  for (const claim of claims) {
    const nodeName = claim.status?.nodeName;
    if (nodeName !== undefined) claimOf.set(nodeName, claim);
    const providerId = claim.status?.providerID;
    if (providerId !== undefined) claimOf.set(`id:${providerId}`, claim);
  }
  return claimOf;
}
