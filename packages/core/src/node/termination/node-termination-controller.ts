import type { Condition } from '../../apis/common/condition.js';
import { matchesLabelSelector } from '../../apis/kubernetes/label-selector.js';
import type { Node } from '../../apis/kubernetes/node.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { Finalizers, Labels, Taints } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { isNodeClaimNotFound } from '../../cloudprovider/errors.js';
import {
  ignoreNotFound,
  isConflict,
  isInternalError,
  isNotFound,
  isTooManyRequests,
  KubeError,
} from '../../kube/errors.js';
import { formatTime, type ObjectKey } from '../../kube/object.js';
import {
  NodeClaims,
  Nodes,
  PodDisruptionBudgets,
  Pods,
  VolumeAttachments,
} from '../../kube/resource-types.js';
import {
  ConditionTypes,
  type ConditionUpdate,
  getCondition,
  setCondition,
} from '../../lifecycle/conditions.js';
import type { LifecycleDependencies } from '../../lifecycle/dependencies.js';
import { EventReasons } from '../../lifecycle/events.js';
import { listCachedOr, nodeKeysForClaim } from '../../lifecycle/lookup.js';
import { observeSince } from '../../lifecycle/metrics.js';
import { asPatch } from '../../lifecycle/patch.js';
import {
  annotatedTerminationTime,
  InstanceTerminationPollMs,
} from '../../nodeclaim/termination/nodeclaim-termination.js';
import {
  type Controller,
  type ReconcileContext,
  type ReconcileResult,
  watchMapped,
  watchSelf,
} from '../../operator/runtime/controller.js';
import type { ControllerCache } from '../../operator/runtime/controller-cache.js';
import { objectRef } from '../../operator/runtime/logger.js';
import { hasTaint } from '../../scheduling/taints/tolerations.js';
import { planDrain } from './drain.js';
import { pendingVolumeAttachments } from './volume-detachment.js';

/** How often a drain or a volume detachment is checked again (Karpenter: 1 s). */
const DrainPollMs = 1_000;

/** Why a pod is drained, as Karpenter labels it: the claim's disruption reason, else a forceful termination. */
function drainReason(claim: NodeClaim | undefined): string {
  return (
    claim?.status?.conditions?.find((c: Condition) => c.type === 'DisruptionReason' && c.status === 'True')
      ?.reason ?? 'Forceful Termination'
  );
}

function deletingNodeKey(nodeName: string | undefined, cache: ControllerCache): ObjectKey[] {
  if (nodeName === undefined || nodeName === '') return [];
  const node = cache.get(Nodes, { name: nodeName });
  return node?.metadata.deletionTimestamp !== undefined ? [{ name: nodeName }] : [];
}

/**
 * `node.termination`: the Node finalizer (`karpenter.sh/termination`). For a deleting Node it
 * deletes the NodeClaim too, taints the Node `karpenter.sh/disrupted:NoSchedule`, drains it
 * (planDrain: four tiers through the Eviction API; PDB refusals retried every second with an
 * event naming the PDB; forced deletion as the termination time nears), waits for volumes to
 * detach (until the termination time), terminates the instance (CloudProvider.delete until
 * NotFound) and removes the finalizer. A NotReady Node whose instance is already gone is
 * released at once. Progress is recorded on the claim (Drained, VolumesDetached,
 * InstanceTerminating).
 */
export class NodeTerminationController implements Controller {
  readonly name = 'node.termination';
  readonly watches;
  readonly maxConcurrentReconciles: number;
  readonly #deps: LifecycleDependencies;

  constructor(deps: LifecycleDependencies, options: { maxConcurrentReconciles?: number } = {}) {
    this.#deps = deps;
    this.maxConcurrentReconciles = options.maxConcurrentReconciles ?? 10;
    this.watches = [
      watchSelf(Nodes),
      watchMapped(Pods, (pod, cache) => deletingNodeKey(pod.spec.nodeName, cache)),
      watchMapped(NodeClaims, (claim, cache) => nodeKeysForClaim(claim, cache)),
      watchMapped(VolumeAttachments, (va, cache) => deletingNodeKey(va.spec?.nodeName, cache)),
    ];
  }

  async reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const { cluster, cloudProvider, clock } = this.#deps;
    let node: Node;
    try {
      node = await cluster.get(Nodes, key);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    if (node.metadata.deletionTimestamp === undefined) return undefined;
    if (!(node.metadata.finalizers ?? []).includes(Finalizers.Termination)) return undefined;
    const providerID = node.spec.providerID;

    const claims =
      providerID === undefined || providerID === ''
        ? []
        : await listCachedOr(cluster, context.cache, NodeClaims, (c) => c.status?.providerID === providerID);
    // Several claims for one instance: no single source of truth, so act as if there were none.
    let claim: NodeClaim | undefined = claims.length === 1 ? claims[0] : undefined;
    if (claim !== undefined && claim.metadata.deletionTimestamp === undefined) {
      try {
        await cluster.delete(NodeClaims, { name: claim.metadata.name ?? '' });
        claim = await cluster.get(NodeClaims, { name: claim.metadata.name ?? '' });
      } catch (err) {
        ignoreNotFound(err);
        claim = undefined;
      }
    }

    // The kubelet of a NotReady node whose instance is gone will never drain anything.
    const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
    if (!ready && providerID !== undefined && providerID !== '') {
      try {
        await cloudProvider.get(providerID);
      } catch (err) {
        if (!isNodeClaimNotFound(err)) throw err;
        await this.#removeFinalizer(node, context);
        return undefined;
      }
    }

    const terminationTime = claim === undefined ? undefined : annotatedTerminationTime(claim);
    node = await this.#taint(node);
    const conditions: ConditionUpdate[] = [];
    const finish = async (result: ReconcileResult | undefined) => {
      if (claim !== undefined) await this.#recordConditions(claim, conditions);
      return result;
    };

    const now = clock.now();
    const pods = (await cluster.list(Pods, { fieldSelector: `spec.nodeName=${node.metadata.name}` })).items;
    const plan = planDrain(pods, now, terminationTime);
    for (const { pod, gracePeriodSeconds } of plan.forceDelete) {
      await this.#forceDelete(pod, gracePeriodSeconds, terminationTime!, claim);
    }
    if (plan.waiting > 0) {
      for (const pod of plan.evict) await this.#evict(pod, node, claim);
      await this.#deps.events.publish({
        object: node,
        type: 'Warning',
        reason: EventReasons.FailedDraining,
        message: `Failed to drain node, ${plan.waiting} pods are waiting to be evicted`,
      });
      conditions.push({
        type: ConditionTypes.Drained,
        status: 'Unknown',
        reason: 'Draining',
        message: 'Draining',
      });
      return finish({ requeueAfterMs: DrainPollMs });
    }
    if (
      claim !== undefined &&
      getCondition(claim.status?.conditions, ConditionTypes.Drained)?.status !== 'True'
    ) {
      this.#deps.metrics.nodesDrained.inc({ nodepool: node.metadata.labels?.[Labels.NodePool] ?? '' });
    }
    conditions.push({ type: ConditionTypes.Drained, status: 'True' });

    const volumes = await pendingVolumeAttachments(cluster, node.metadata.name, pods, now);
    if (volumes.length > 0) {
      if (terminationTime === undefined || now <= terminationTime) {
        await this.#deps.events.publish({
          object: node,
          type: 'Normal',
          reason: EventReasons.AwaitingVolumeDetachment,
          message: `Awaiting deletion of bound VolumeAttachments (${volumes.map((v) => v.metadata.name).join(', ')})`,
        });
        conditions.push({
          type: ConditionTypes.VolumesDetached,
          status: 'Unknown',
          reason: 'AwaitingVolumeDetachment',
          message: 'AwaitingVolumeDetachment',
        });
        return finish({ requeueAfterMs: DrainPollMs });
      }
      conditions.push({
        type: ConditionTypes.VolumesDetached,
        status: 'False',
        reason: 'TerminationGracePeriodElapsed',
        message: 'TerminationGracePeriodElapsed',
      });
    } else {
      conditions.push({ type: ConditionTypes.VolumesDetached, status: 'True' });
    }

    if (claim !== undefined) {
      try {
        await cloudProvider.delete(claim);
        conditions.push({ type: ConditionTypes.InstanceTerminating, status: 'True' });
        return finish({ requeueAfterMs: InstanceTerminationPollMs });
      } catch (err) {
        if (!isNodeClaimNotFound(err)) {
          await finish(undefined);
          throw err;
        }
      }
    }
    await finish(undefined);
    await this.#removeFinalizer(node, context);
    return undefined;
  }

  async #taint(node: Node): Promise<Node> {
    const taints = node.spec.taints ?? [];
    if (hasTaint(taints, Taints.Disrupted)) return node;
    return this.#deps.cluster.patch(
      Nodes,
      { name: node.metadata.name },
      asPatch({ spec: { taints: [...taints, { ...Taints.Disrupted }] } }),
      { resourceVersion: node.metadata.resourceVersion ?? '' },
    );
  }

  async #evict(pod: Pod, node: Node, claim: NodeClaim | undefined): Promise<void> {
    const key = { name: pod.metadata.name, namespace: pod.metadata.namespace };
    const events = this.#deps.events;
    const metrics = this.#deps.metrics;
    const requests = {
      inc: (labels: { code: string }) => {
        metrics.nodesEvictionRequests.inc(labels);
        metrics.podsEvictionRequests.inc(labels);
      },
    };
    try {
      await this.#deps.cluster.evict(key, {
        deleteOptions: {
          preconditions: { ...(pod.metadata.uid === undefined ? {} : { uid: pod.metadata.uid }) },
        },
      });
      requests.inc({ code: '200' });
    } catch (err) {
      if (err instanceof KubeError) requests.inc({ code: String(err.code) });
      // Gone, or replaced by another pod of the same name: nothing left to evict.
      if (isNotFound(err) || isConflict(err)) return;
      if (isTooManyRequests(err) || isInternalError(err)) {
        const pdbs = await this.#pdbsOf(pod);
        const why =
          pdbs.length > 1
            ? `eviction does not support multiple PodDisruptionBudgets (${pdbs.join(', ')})`
            : `evicting pod violates PodDisruptionBudget ${pdbs[0] ?? '(unknown)'}`;
        await events.publish({
          object: node,
          type: 'Warning',
          reason: EventReasons.FailedDraining,
          message: `Failed to drain node, ${why}: pod ${key.namespace}/${key.name}`,
        });
        await events.publish({
          object: pod,
          type: 'Warning',
          reason: EventReasons.EvictionBlocked,
          message: `Cannot evict pod: ${why}`,
        });
        return;
      }
      throw err;
    }
    const reason = drainReason(claim);
    metrics.podsDrained.inc({ reason });
    await events.publish({
      object: pod,
      type: 'Normal',
      reason: EventReasons.Evicted,
      message: `Evicted pod: ${reason}`,
    });
  }

  /** `namespace/name` of the PDBs selecting the pod, for the event that says which one blocks. */
  async #pdbsOf(pod: Pod): Promise<string[]> {
    const pdbs = await this.#deps.cluster.list(PodDisruptionBudgets, { namespace: pod.metadata.namespace });
    return pdbs.items
      .filter((pdb) => matchesLabelSelector(pdb.spec?.selector ?? undefined, pod.metadata.labels))
      .map((pdb) => `${pdb.metadata.namespace ?? ''}/${pdb.metadata.name ?? ''}`);
  }

  async #forceDelete(
    pod: Pod,
    gracePeriodSeconds: number,
    terminationTime: number,
    claim: NodeClaim | undefined,
  ): Promise<void> {
    try {
      await this.#deps.cluster.delete(
        Pods,
        { name: pod.metadata.name, namespace: pod.metadata.namespace },
        { gracePeriodSeconds },
      );
    } catch (err) {
      ignoreNotFound(err);
      return;
    }
    this.#deps.metrics.podsDrained.inc({ reason: drainReason(claim) });
    await this.#deps.events.publish({
      object: pod,
      type: 'Warning',
      reason: EventReasons.Disrupted,
      message: `Deleting the pod to accommodate the terminationTime ${formatTime(terminationTime)} of the node; granted ${gracePeriodSeconds}s of grace, bypassing PodDisruptionBudgets and karpenter.sh/do-not-disrupt`,
    });
  }

  async #recordConditions(claim: NodeClaim, updates: readonly ConditionUpdate[]): Promise<void> {
    const now = this.#deps.clock.now();
    let conditions = claim.status?.conditions;
    for (const update of updates) conditions = setCondition(conditions, update, now);
    if (JSON.stringify(conditions ?? []) === JSON.stringify(claim.status?.conditions ?? [])) return;
    try {
      await this.#deps.cluster.updateStatus(NodeClaims, {
        ...claim,
        status: { ...claim.status, conditions },
      });
    } catch (err) {
      // A conflict only delays the condition to the next pass.
      if (!isNotFound(err) && !isConflict(err)) throw err;
    }
  }

  async #removeFinalizer(node: Node, context: ReconcileContext): Promise<void> {
    try {
      await this.#deps.cluster.patch(
        Nodes,
        { name: node.metadata.name },
        {
          metadata: {
            finalizers: (node.metadata.finalizers ?? []).filter((f) => f !== Finalizers.Termination),
          },
        },
        { resourceVersion: node.metadata.resourceVersion ?? '' },
      );
    } catch (err) {
      ignoreNotFound(err);
      return;
    }
    const nodepool = node.metadata.labels?.[Labels.NodePool] ?? '';
    const now = this.#deps.clock.now();
    this.#deps.metrics.nodesTerminated.inc({ nodepool });
    observeSince(this.#deps.metrics.nodesTerminationDuration, nodepool, node.metadata.deletionTimestamp, now);
    observeSince(this.#deps.metrics.nodesLifetimeDuration, nodepool, node.metadata.creationTimestamp, now);
    context.logger.info({ Node: objectRef(node) }, 'deleted node');
  }
}
