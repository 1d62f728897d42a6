import { durationMs } from '../../apis/common/duration.js';
import { Annotations, Finalizers } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { isNodeClaimNotFound } from '../../cloudprovider/errors.js';
import { ignoreNotFound } from '../../kube/errors.js';
import { formatTime, keyOf, parseTime } from '../../kube/object.js';
import { NodeClaims, Nodes } from '../../kube/resource-types.js';
import { ConditionTypes, getCondition, setCondition } from '../../lifecycle/conditions.js';
import type { LifecycleDependencies } from '../../lifecycle/dependencies.js';
import { EventReasons } from '../../lifecycle/events.js';
import { listCachedOr } from '../../lifecycle/lookup.js';
import { claimLabels, observeSince } from '../../lifecycle/metrics.js';
import type { ReconcileContext, ReconcileResult } from '../../operator/runtime/controller.js';
import { objectRef } from '../../operator/runtime/logger.js';

/** How often the instance's termination is polled (Karpenter: 5 s). */
export const InstanceTerminationPollMs = 5_000;

/**
 * When a deleting claim's pods may be forced off: deletion + terminationGracePeriod, or
 * undefined when the claim has no grace period (drain waits indefinitely).
 */
export function terminationTime(claim: Pick<NodeClaim, 'metadata' | 'spec'>): number | undefined {
  const deletion = claim.metadata.deletionTimestamp;
  const grace = claim.spec.terminationGracePeriod;
  if (deletion === undefined || grace === undefined) return undefined;
  const ms = durationMs(grace);
  return ms === undefined ? undefined : parseTime(deletion) + ms;
}

/** The termination time a claim carries in its annotation (set when its deletion began). */
export function annotatedTerminationTime(claim: Pick<NodeClaim, 'metadata'>): number | undefined {
  const value = claim.metadata.annotations?.[Annotations.NodeClaimTerminationTimestamp];
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The NodeClaim finalizer (`karpenter.sh/termination`): annotates the termination time, deletes
 * the claim's Node and waits until it is gone (node.termination drains it), then calls
 * CloudProvider.delete every 5 s until the instance is NotFound, then removes the finalizer.
 *
 * A claim without a providerID may still have an instance, when the controller died between
 * create and the status write: unless Launched=False says no launch succeeded, the instance is
 * looked up by the claim's name in CloudProvider.list and terminated too.
 */
export class NodeClaimTermination {
  readonly #deps: LifecycleDependencies;

  constructor(deps: LifecycleDependencies) {
    this.#deps = deps;
  }

  async finalize(initial: NodeClaim, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const { cluster, cloudProvider, events, metrics } = this.#deps;
    let claim = initial;
    if (!(claim.metadata.finalizers ?? []).includes(Finalizers.Termination)) return undefined;
    const key = keyOf(claim);

    const until = terminationTime(claim);
    if (
      until !== undefined &&
      claim.metadata.annotations?.[Annotations.NodeClaimTerminationTimestamp] === undefined
    ) {
      const stamp = formatTime(until);
      claim = await cluster.patch(
        NodeClaims,
        key,
        { metadata: { annotations: { [Annotations.NodeClaimTerminationTimestamp]: stamp } } },
        { resourceVersion: claim.metadata.resourceVersion ?? '' },
      );
      context.logger.info(
        { NodeClaim: objectRef(claim), [Annotations.NodeClaimTerminationTimestamp]: stamp },
        'annotated nodeclaim',
      );
      await events.publish({
        object: claim,
        type: 'Warning',
        reason: EventReasons.TerminationGracePeriodExpiring,
        message: `All pods will be deleted by ${stamp}`,
      });
    }

    const providerID = claim.status?.providerID;
    const nodes =
      providerID === undefined || providerID === ''
        ? []
        : await listCachedOr(cluster, context.cache, Nodes, (n) => n.spec.providerID === providerID);
    for (const node of nodes) {
      if (node.metadata.deletionTimestamp !== undefined) continue;
      try {
        await cluster.delete(Nodes, { name: node.metadata.name });
      } catch (err) {
        ignoreNotFound(err);
      }
    }
    // The Node's own finalizer drains it; its deletion event brings this claim back.
    if (nodes.length > 0) return undefined;

    const instance = await this.#instanceOf(claim);
    if (instance !== undefined) {
      let gone = false;
      try {
        await cloudProvider.delete(instance);
      } catch (err) {
        if (!isNodeClaimNotFound(err)) throw err;
        gone = true;
      }
      if (!gone) {
        if (getCondition(claim.status?.conditions, ConditionTypes.InstanceTerminating)?.status !== 'True') {
          claim = await cluster.updateStatus(NodeClaims, {
            ...claim,
            status: {
              ...claim.status,
              conditions: setCondition(
                claim.status?.conditions,
                { type: ConditionTypes.InstanceTerminating, status: 'True' },
                this.#deps.clock.now(),
              ),
            },
          });
        }
        return { requeueAfterMs: InstanceTerminationPollMs };
      }
    }

    try {
      await cluster.patch(
        NodeClaims,
        key,
        {
          metadata: {
            finalizers: (claim.metadata.finalizers ?? []).filter((f) => f !== Finalizers.Termination),
          },
        },
        { resourceVersion: claim.metadata.resourceVersion ?? '' },
      );
    } catch (err) {
      ignoreNotFound(err);
      return undefined;
    }
    metrics.nodeClaimsTerminated.inc(claimLabels(claim));
    const { nodepool } = claimLabels(claim);
    const now = this.#deps.clock.now();
    observeSince(metrics.nodeClaimsTerminationDuration, nodepool, claim.metadata.deletionTimestamp, now);
    const terminating = getCondition(claim.status?.conditions, ConditionTypes.InstanceTerminating);
    if (terminating?.status === 'True') {
      observeSince(
        metrics.nodeClaimsInstanceTerminationDuration,
        nodepool,
        terminating.lastTransitionTime,
        now,
      );
    }
    context.logger.info({ NodeClaim: objectRef(claim) }, 'deleted nodeclaim');
    return undefined;
  }

  /** The instance to terminate: the recorded one, or one found by the claim's name after a crash. */
  async #instanceOf(claim: NodeClaim): Promise<NodeClaim | undefined> {
    if (claim.status?.providerID !== undefined && claim.status.providerID !== '') return claim;
    if (getCondition(claim.status?.conditions, ConditionTypes.Launched)?.status === 'False') return undefined;
    const found = (await this.#deps.cloudProvider.list()).find(
      (i) => i.metadata.name === claim.metadata.name,
    );
    if (found?.status?.providerID === undefined) return undefined;
    return { ...claim, status: { ...claim.status, providerID: found.status.providerID } };
  }
}
