import type { NodePool } from '../../../apis/v1/nodepool.js';
import { ConditionTypes, getCondition } from '../../../lifecycle/conditions.js';
import { type DriftBasis, driftLabels, staticDrift } from '../../../nodeclaim/drift/static-drift.js';
import type { ManagedNode } from './managed-node.js';

/** Why a node no longer matches what its NodePool would launch now. */
export interface Drift {
  readonly reason: string;
  /** When it was noticed (the Drifted condition's transition), for ordering; undefined if just now. */
  readonly since: number | undefined;
}

/**
 * Whether the node drifted, checked in this order:
 * - its NodeClaim's `Drifted` condition is True — written by `nodeclaim.disruption`, the only
 *   way provider drift (a new image, security groups, subnets) is known;
 * - else `staticDrift` (NodePool hash, then requirements), the same function that controller
 *   writes the condition from: a snapshot with no controller behind it (`nodewright disrupt`),
 *   or a NodePool edit the controller has not recorded yet, gives the same answer.
 * `basis`, when given, is `driftBasis(nodePool)`, shared by the pool's nodes.
 */
export function nodeDrift(node: ManagedNode, nodePool: NodePool, basis?: DriftBasis): Drift | undefined {
  const condition = getCondition(node.nodeClaim?.status?.conditions, ConditionTypes.Drifted);
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
  const found = staticDrift(
    node.nodeClaim?.metadata.annotations,
    driftLabels(node.nodeClaim?.metadata.labels, node.node.metadata.labels),
    nodePool,
    basis,
  );
  return found === undefined ? undefined : { reason: found.message, since: undefined };
}

/**
 * `nodeDrift` kept per managed node and NodePool object between passes: both are the same
 * objects while nothing about them changed (see ManagedNodeMemo; cluster state parses a NodePool
 * anew on every change), and the verdict reads nothing else. At 500 nodes, checking every node's
 * labels against its pool every pass was a measurable share of a long simulation.
 */
export class NodeDriftMemo {
  readonly #kept = new WeakMap<ManagedNode, { readonly pool: NodePool; readonly drift: Drift | undefined }>();

  drift(node: ManagedNode, nodePool: NodePool, basis?: DriftBasis): Drift | undefined {
    const kept = this.#kept.get(node);
    if (kept !== undefined && kept.pool === nodePool) return kept.drift;
    const drift = nodeDrift(node, nodePool, basis);
    this.#kept.set(node, { pool: nodePool, drift });
    return drift;
  }
}
