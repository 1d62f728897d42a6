import type { Node } from '../../apis/kubernetes/node.js';
import type { NodeTaint } from '../../apis/kubernetes/taint.js';
import { Finalizers, Labels, Taints } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { isNotFound } from '../../kube/errors.js';
import { NodeClaims, Nodes } from '../../kube/resource-types.js';
import { ConditionTypes, isConditionTrue } from '../../lifecycle/conditions.js';
import type { LifecycleDependencies } from '../../lifecycle/dependencies.js';
import { EventReasons } from '../../lifecycle/events.js';
import { nodesForProviderID } from '../../lifecycle/lookup.js';
import { asPatch } from '../../lifecycle/patch.js';
import { objectRef } from '../../operator/runtime/logger.js';
import { hasTaint, isTaint, type TaintLike } from '../../scheduling/taints/tolerations.js';
import {
  type ClaimState,
  type ClaimStep,
  type StepOutcome,
  setClaimCondition,
  waitingFor,
} from './claim-step.js';

/** `taints` plus every taint of `extra` whose key and effect it lacks (Karpenter's Taints.Merge). */
function mergeTaints(taints: readonly NodeTaint[], extra: readonly TaintLike[]): NodeTaint[] {
  const out = [...taints];
  for (const t of extra) {
    if (!out.some((o) => isTaint(o, t))) {
      out.push({
        key: t.key,
        effect: t.effect as NodeTaint['effect'],
        ...(t.value ? { value: t.value } : {}),
      });
    }
  }
  return out;
}

type NodeOwnerReference = NonNullable<Node['metadata']['ownerReferences']>[number];

/** What registration writes onto a Node. */
export interface RegisteredNode {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly finalizers: string[];
  readonly ownerReferences: NodeOwnerReference[];
  readonly taints: NodeTaint[];
  /** The Node came up without the karpenter.sh/unregistered taint (its image does not set it). */
  readonly unregisteredTaintMissing: boolean;
}

/**
 * The Node's metadata and taints once registered to `claim`: the claim's labels and annotations
 * added, `karpenter.sh/registered=true`, the termination finalizer, an owner reference to the
 * claim (blockOwnerDeletion), the claim's taints and startup taints merged in unless the Node is
 * labelled `karpenter.sh/do-not-sync-taints=true`, and the `karpenter.sh/unregistered` taint
 * removed in every case.
 */
export function registerNode(node: Node, claim: NodeClaim): RegisteredNode {
  const labels = { ...node.metadata.labels, ...claim.metadata.labels, [Labels.Registered]: 'true' };
  const annotations = { ...node.metadata.annotations, ...claim.metadata.annotations };
  const finalizers = [...(node.metadata.finalizers ?? [])];
  if (!finalizers.includes(Finalizers.Termination)) finalizers.push(Finalizers.Termination);
  const ownerReferences: NodeOwnerReference[] = [...(node.metadata.ownerReferences ?? [])];
  const uid = claim.metadata.uid;
  if (!ownerReferences.some((o) => o.kind === 'NodeClaim' && o.uid === uid)) {
    ownerReferences.push({
      apiVersion: NodeClaims.apiVersion,
      kind: 'NodeClaim',
      name: claim.metadata.name ?? '',
      ...(uid === undefined ? {} : { uid }),
      blockOwnerDeletion: true,
    });
  }
  const existing = node.spec.taints ?? [];
  const unregisteredTaintMissing = !hasTaint(existing, Taints.Unregistered);
  let taints = existing.filter((t) => !isTaint(t, Taints.Unregistered));
  if (node.metadata.labels?.[Labels.DoNotSyncTaints] !== 'true') {
    taints = mergeTaints(taints, [...(claim.spec.taints ?? []), ...(claim.spec.startupTaints ?? [])]);
  }
  return { labels, annotations, finalizers, ownerReferences, taints, unregisteredTaintMissing };
}

/**
 * Registration: once launched, waits for a Node with the claim's providerID, syncs it (see
 * registerNode), then records status.nodeName and Registered=True and counts the node created.
 */
export class RegistrationStep implements ClaimStep {
  readonly name = 'registration';
  readonly #deps: LifecycleDependencies;

  constructor(deps: LifecycleDependencies) {
    this.#deps = deps;
  }

  async run(state: ClaimState): Promise<StepOutcome> {
    const claim = state.claim;
    const now = this.#deps.clock.now();
    const conditions = claim.status?.conditions;
    if (isConditionTrue(conditions, ConditionTypes.Registered)) return {};
    const unknown = waitingFor(claim, ConditionTypes.Registered, now);
    if (!isConditionTrue(conditions, ConditionTypes.Launched))
      return unknown('NotLaunched', 'Node not launched');
    const candidates = nodesForProviderID(state.context.cache.list(Nodes), claim.status?.providerID);
    if (candidates.length === 0) return unknown('NodeNotFound', 'Node not registered with cluster');
    if (candidates.length > 1) {
      return unknown(
        'MultipleNodesFound',
        `Invariant violated, matched multiple nodes: ${candidates.map((n) => n.metadata.name).join(', ')}`,
      );
    }
    let node: Node;
    try {
      node = await this.#deps.cluster.get(Nodes, { name: candidates[0]!.metadata.name });
    } catch (err) {
      if (isNotFound(err)) return unknown('NodeNotFound', 'Node not registered with cluster');
      throw err;
    }
    if (node.metadata.deletionTimestamp !== undefined)
      return unknown('NodeDeleting', 'Node is being deleted');
    // A retry after a failed claim write finds the Node already registered: count and warn once.
    const firstTime = node.metadata.labels?.[Labels.Registered] !== 'true';
    const synced = registerNode(node, claim);
    state.node = await this.#deps.cluster.patch(
      Nodes,
      { name: node.metadata.name },
      asPatch({
        metadata: {
          labels: synced.labels,
          annotations: synced.annotations,
          finalizers: synced.finalizers,
          ownerReferences: synced.ownerReferences,
        },
        spec: { taints: synced.taints },
      }),
      node.metadata.resourceVersion === undefined ? {} : { resourceVersion: node.metadata.resourceVersion },
    );
    if (firstTime && synced.unregisteredTaintMissing) {
      await this.#deps.events.publish({
        object: claim,
        type: 'Warning',
        reason: EventReasons.UnregisteredTaintMissing,
        message: `Node ${node.metadata.name} registered without the ${Taints.Unregistered.key}:${Taints.Unregistered.effect} taint, so pods may have scheduled before it was configured`,
      });
    }
    claim.status = { ...claim.status, nodeName: node.metadata.name };
    setClaimCondition(claim, { type: ConditionTypes.Registered, status: 'True' }, now);
    if (firstTime)
      this.#deps.metrics.nodesCreated.inc({ nodepool: claim.metadata.labels?.[Labels.NodePool] ?? '' });
    state.context.logger.info(
      { NodeClaim: objectRef(claim), Node: { name: node.metadata.name } },
      'registered nodeclaim',
    );
    return {};
  }
}
