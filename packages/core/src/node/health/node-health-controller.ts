import type { Node } from '../../apis/kubernetes/node.js';
import { Labels } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { ignoreNotFound } from '../../kube/errors.js';
import type { ObjectKey } from '../../kube/object.js';
import { isReschedulable } from '../../kube/pod.js';
import { NodeClaims, Nodes, Pods } from '../../kube/resource-types.js';
import type { LifecycleDependencies } from '../../lifecycle/dependencies.js';
import { EventReasons } from '../../lifecycle/events.js';
import { claimsForProviderID, nodeKeysForClaim } from '../../lifecycle/lookup.js';
import {
  DisruptionReasons,
  recordNodeClaimDisrupted,
  recordPodsDisruptionInitiated,
} from '../../lifecycle/metrics.js';
import { snakeCase } from '../../metrics/snake-case.js';
import {
  type Controller,
  type ReconcileContext,
  type ReconcileResult,
  watchMapped,
  watchSelf,
} from '../../operator/runtime/controller.js';
import { objectRef } from '../../operator/runtime/logger.js';
import { poolRepairBudget, repairVerdict } from './repair-verdict.js';

/** Options of `node.health`. */
export interface NodeHealthOptions {
  /** How soon a repair held back by an unhealthy pool is looked at again; default 1 min. */
  readonly blockedRecheckMs?: number;
}

/**
 * `node.health` (Karpenter's node repair): a Node showing one of the provider's repair-policy
 * conditions for longer than the policy's toleration has its NodeClaim deleted, so termination
 * drains it and the provisioner replaces it. Forceful like expiration: disruption budgets and
 * do-not-disrupt do not apply. Never acts on a NodePool with more than 20 % of its Nodes
 * unhealthy (then a NodeRepairBlocked event and log say why), which also caps repairs in flight
 * at 20 % of the pool. Nodes no NodeClaim owns are left alone.
 */
export class NodeHealthController implements Controller {
  readonly name = 'node.health';
  readonly watches = [
    watchSelf(Nodes),
    watchMapped(NodeClaims, (claim: NodeClaim, cache) => nodeKeysForClaim(claim, cache)),
  ];
  readonly maxConcurrentReconciles = 10;
  readonly #deps: LifecycleDependencies;
  readonly #blockedRecheckMs: number;

  constructor(deps: LifecycleDependencies, options: NodeHealthOptions = {}) {
    this.#deps = deps;
    this.#blockedRecheckMs = options.blockedRecheckMs ?? 60_000;
  }

  /** Pods on the node that would be rescheduled (not DaemonSet, not mirror, not done); 0 when they cannot be listed. */
  async #reschedulablePods(nodeName: string): Promise<number> {
    try {
      const pods = await this.#deps.cluster.list(Pods, { fieldSelector: `spec.nodeName=${nodeName}` });
      return pods.items.filter(isReschedulable).length;
    } catch {
      return 0;
    }
  }

  async reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const node = context.cache.get(Nodes, key);
    if (node === undefined || node.metadata.deletionTimestamp !== undefined) return undefined;
    const policies = this.#deps.cloudProvider.repairPolicies();
    if (policies.length === 0) return undefined;
    // The verdict reads the Node alone; finding its claim is a pass over every claim. Every
    // kubelet heartbeat brings a healthy Node here, so the cheap question goes first.
    const verdict = repairVerdict(node, policies, this.#deps.clock.now());
    if (verdict.kind === 'healthy') return undefined;
    const claim = claimsForProviderID(context.cache.list(NodeClaims), node.spec.providerID)[0];
    if (claim === undefined || claim.metadata.deletionTimestamp !== undefined) return undefined;
    if (verdict.kind === 'tolerated') return { requeueAfterMs: verdict.recheckInMs };
    const pool = node.metadata.labels?.[Labels.NodePool];
    const poolNodes = context.cache.list(Nodes, (n: Node) => n.metadata.labels?.[Labels.NodePool] === pool);
    const budget = poolRepairBudget(poolNodes, policies);
    const condition = `${verdict.policy.conditionType}=${verdict.policy.conditionStatus}`;
    if (!budget.allowed) {
      await this.#deps.events.publish({
        object: node,
        type: 'Warning',
        reason: EventReasons.NodeRepairBlocked,
        message: `Node has been ${condition} for ${Math.round(verdict.unhealthyForMs / 1000)}s but ${budget.reason}`,
      });
      context.logger.info(
        { Node: objectRef(node), NodePool: pool, unhealthy: budget.unhealthy, nodes: budget.nodes },
        `node repair blocked: ${budget.reason}`,
      );
      return { requeueAfterMs: this.#blockedRecheckMs };
    }
    try {
      await this.#deps.cluster.delete(NodeClaims, { name: claim.metadata.name ?? '' });
    } catch (err) {
      ignoreNotFound(err);
      return undefined;
    }
    recordNodeClaimDisrupted(this.#deps.metrics, claim, DisruptionReasons.Unhealthy);
    recordPodsDisruptionInitiated(
      this.#deps.metrics,
      claim,
      DisruptionReasons.Unhealthy,
      await this.#reschedulablePods(node.metadata.name),
    );
    this.#deps.metrics.nodeClaimsUnhealthyDisrupted.inc({
      condition: snakeCase(verdict.policy.conditionType),
      nodepool: pool ?? '',
      capacity_type: node.metadata.labels?.[Labels.CapacityType] ?? '',
      image_id: claim.status?.imageID ?? '',
    });
    const message = `Node has been ${condition} for ${Math.round(verdict.unhealthyForMs / 1000)}s, past its ${verdict.policy.tolerationDurationMs / 1000}s toleration; deleting its NodeClaim`;
    for (const object of [claim, node]) {
      await this.#deps.events.publish({ object, type: 'Warning', reason: EventReasons.NodeRepair, message });
    }
    context.logger.info(
      {
        NodeClaim: objectRef(claim),
        Node: objectRef(node),
        condition,
        unhealthy: `${verdict.unhealthyForMs / 1000}s`,
      },
      'disrupting nodeclaim: unhealthy node',
    );
    return undefined;
  }
}
