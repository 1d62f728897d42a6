import { Labels } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { isCreateError, isInsufficientCapacity, isNodeClassNotReady } from '../../cloudprovider/errors.js';
import { ignoreNotFound } from '../../kube/errors.js';
import { keyOf } from '../../kube/object.js';
import { NodeClaims, NodePools } from '../../kube/resource-types.js';
import { ConditionTypes, type ConditionUpdate, isConditionTrue } from '../../lifecycle/conditions.js';
import type { LifecycleDependencies } from '../../lifecycle/dependencies.js';
import { EventReasons } from '../../lifecycle/events.js';
import { DisruptionReasons, recordNodeClaimDisrupted } from '../../lifecycle/metrics.js';
import { objectRef } from '../../operator/runtime/logger.js';
import { Requirements } from '../../scheduling/requirements/requirements.js';
import { type ClaimState, type ClaimStep, type StepOutcome, setClaimCondition } from './claim-step.js';

/** Longest LaunchFailed message kept on the condition (upstream truncates there and adds `...`). */
const MaxLaunchMessageLength = 300;

/** What a failed CloudProvider.create means for the claim (the upstream error mapping). */
export type LaunchFailure =
  | {
      /** Nothing can launch this claim as it is: delete it so the pods are scheduled again. */
      readonly kind: 'delete';
      readonly eventReason: string;
      readonly disruptionReason: string;
      /** The Launched condition recorded before deletion. */
      readonly condition: ConditionUpdate;
      readonly message: string;
    }
  | {
      /** Keep the claim with Launched=Unknown and retry. */
      readonly kind: 'retry';
      readonly condition: ConditionUpdate;
    };

/** `msg`, cut to 300 characters plus `...` when longer. */
export function truncateMessage(msg: string, max = MaxLaunchMessageLength): string {
  return msg.length <= max ? msg : `${msg.slice(0, max)}...`;
}

/**
 * The upstream mapping of create errors: InsufficientCapacity and NodeClassNotReady delete the
 * claim (reasons insufficient_capacity / nodeclass_not_ready); CreateError keeps it with
 * Launched=Unknown and the provider's reason and message; anything else is LaunchFailed with
 * the message truncated.
 */
export function classifyLaunchError(err: unknown): LaunchFailure {
  const message = err instanceof Error ? err.message : String(err);
  if (isInsufficientCapacity(err)) {
    return {
      kind: 'delete',
      eventReason: EventReasons.InsufficientCapacity,
      disruptionReason: DisruptionReasons.InsufficientCapacity,
      condition: {
        type: ConditionTypes.Launched,
        status: 'False',
        reason: 'InsufficientCapacity',
        message: truncateMessage(message),
      },
      message,
    };
  }
  if (isNodeClassNotReady(err)) {
    return {
      kind: 'delete',
      eventReason: EventReasons.NodeClassNotReady,
      disruptionReason: DisruptionReasons.NodeClassNotReady,
      condition: {
        type: ConditionTypes.Launched,
        status: 'False',
        reason: 'NodeClassNotReady',
        message: truncateMessage(message),
      },
      message,
    };
  }
  if (isCreateError(err)) {
    return {
      kind: 'retry',
      condition: {
        type: ConditionTypes.Launched,
        status: 'Unknown',
        reason: err.conditionReason,
        message: err.conditionMessage,
      },
    };
  }
  return {
    kind: 'retry',
    condition: {
      type: ConditionTypes.Launched,
      status: 'Unknown',
      reason: 'LaunchFailed',
      message: truncateMessage(message),
    },
  };
}

/**
 * The claim with what the provider resolved (upstream's PopulateNodeClaimDetails): labels are
 * the provider's, then those single-valued requirements imply, then the claim's own (so user
 * labels win); annotations gain the provider's; status takes providerID, imageID, capacity and
 * allocatable.
 */
export function hydrateNodeClaim(claim: NodeClaim, created: NodeClaim): NodeClaim {
  const out = structuredClone(claim);
  out.metadata.labels = {
    ...created.metadata.labels,
    ...Requirements.fromNodeSelectorRequirements(claim.spec.requirements).labels(),
    ...claim.metadata.labels,
  };
  const annotations = { ...claim.metadata.annotations, ...created.metadata.annotations };
  if (Object.keys(annotations).length > 0) out.metadata.annotations = annotations;
  const status = { ...out.status };
  if (created.status?.providerID !== undefined) status.providerID = created.status.providerID;
  if (created.status?.imageID !== undefined) status.imageID = created.status.imageID;
  if (created.status?.capacity !== undefined) status.capacity = { ...created.status.capacity };
  if (created.status?.allocatable !== undefined) status.allocatable = { ...created.status.allocatable };
  out.status = status;
  return out;
}

/**
 * Launch: calls CloudProvider.create once per claim — skipped when Launched is True or a
 * providerID is recorded. A retry after a crash between create and the status write calls
 * create again, which the provider contract makes idempotent per claim name, so no second
 * instance is launched.
 */
export class LaunchStep implements ClaimStep {
  readonly name = 'launch';
  readonly #deps: LifecycleDependencies;

  constructor(deps: LifecycleDependencies) {
    this.#deps = deps;
  }

  async run(state: ClaimState): Promise<StepOutcome> {
    const claim = state.claim;
    const now = this.#deps.clock.now();
    if (isConditionTrue(claim.status?.conditions, ConditionTypes.Launched)) return {};
    if (claim.status?.providerID !== undefined && claim.status.providerID !== '') {
      setClaimCondition(claim, { type: ConditionTypes.Launched, status: 'True' }, now);
      return {};
    }
    let created: NodeClaim;
    try {
      created = await this.#deps.cloudProvider.create(structuredClone(claim));
    } catch (err) {
      return this.#failed(state, err);
    }
    const hydrated = hydrateNodeClaim(claim, created);
    setClaimCondition(hydrated, { type: ConditionTypes.Launched, status: 'True' }, now);
    state.claim = hydrated;
    state.context.logger.info(
      {
        NodeClaim: objectRef(claim),
        'provider-id': hydrated.status?.providerID,
        'instance-type': hydrated.metadata.labels?.[Labels.InstanceType],
        zone: hydrated.metadata.labels?.[Labels.Zone],
        'capacity-type': hydrated.metadata.labels?.[Labels.CapacityType],
        allocatable: hydrated.status?.allocatable,
      },
      'launched nodeclaim',
    );
    return {};
  }

  async #failed(state: ClaimState, err: unknown): Promise<StepOutcome> {
    const { cluster, events, metrics } = this.#deps;
    const claim = state.claim;
    const failure = classifyLaunchError(err);
    setClaimCondition(claim, failure.condition, this.#deps.clock.now());
    if (failure.kind === 'retry') {
      const { reason, message } = failure.condition;
      await events.publish({
        object: claim,
        type: 'Warning',
        reason: EventReasons.LaunchFailed,
        message: `Failed to launch NodeClaim: ${reason === 'LaunchFailed' ? '' : `${reason}: `}${message ?? ''}`,
      });
      return { error: err };
    }
    state.context.logger.error({ NodeClaim: objectRef(claim), err }, 'failed launching nodeclaim');
    await events.publish({
      object: claim,
      type: 'Warning',
      reason: failure.eventReason,
      message: `Failed to launch NodeClaim: ${truncateMessage(failure.message)}`,
    });
    if (failure.eventReason === EventReasons.NodeClassNotReady)
      await this.#publishOnNodePool(claim, failure.message);
    try {
      // Launched=False tells termination no instance can exist, so it need not look for one.
      const written = await cluster.updateStatus(NodeClaims, claim);
      state.claim = written;
      await cluster.delete(NodeClaims, keyOf(claim));
    } catch (deleteErr) {
      ignoreNotFound(deleteErr);
      return { stop: true };
    }
    recordNodeClaimDisrupted(metrics, claim, failure.disruptionReason);
    return { stop: true };
  }

  async #publishOnNodePool(claim: NodeClaim, message: string): Promise<void> {
    const pool = claim.metadata.labels?.[Labels.NodePool];
    if (pool === undefined) return;
    try {
      const nodePool = await this.#deps.cluster.get(NodePools, { name: pool });
      await this.#deps.events.publish({
        object: nodePool,
        type: 'Warning',
        reason: EventReasons.NodeClassNotReady,
        message: `NodeClaim ${claim.metadata.name ?? ''} could not launch: ${truncateMessage(message)}`,
      });
    } catch (err) {
      ignoreNotFound(err);
    }
  }
}
