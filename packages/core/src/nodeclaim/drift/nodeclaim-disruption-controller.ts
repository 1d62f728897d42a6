import { z } from 'zod';
import type { Node } from '../../apis/kubernetes/node.js';
import { Labels } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { nodePoolSchema } from '../../apis/v1/nodepool.js';
import type { BackoffPolicy } from '../../clock/backoff.js';
import { isConflict, isNotFound } from '../../kube/errors.js';
import type { ObjectKey } from '../../kube/object.js';
import { NodeClaims, NodePools, Nodes } from '../../kube/resource-types.js';
import { ConditionTypes, getCondition } from '../../lifecycle/conditions.js';
import type { LifecycleDependencies } from '../../lifecycle/dependencies.js';
import { EventReasons } from '../../lifecycle/events.js';
import {
  changedBeyondStatus,
  claimKeysForNode,
  isManaged,
  nodeKeysForClaim,
} from '../../lifecycle/lookup.js';
import {
  type Controller,
  type ReconcileContext,
  type ReconcileResult,
  watchMapped,
  watchSelf,
} from '../../operator/runtime/controller.js';
import type { InformerEvent } from '../../operator/runtime/informer.js';
import { objectRef } from '../../operator/runtime/logger.js';
import {
  cloudProviderVerdict,
  conditionsAfter,
  type DriftVerdict,
  driftBeforeCloudProvider,
  type NodePoolLookup,
} from './drift-verdict.js';
import { driftBasis } from './static-drift.js';

/** Options of `nodeclaim.disruption`; each defaults to upstream's value. */
export interface NodeClaimDisruptionOptions {
  /**
   * How often each claim is checked again, so drift only the cloud provider can see (a new
   * image, changed security groups) is noticed without any Kubernetes event. Default 5 min.
   */
  readonly recheckIntervalMs?: number;
  /** Retries after a failed check (isDrifted or a write): default 1 s doubling up to the recheck interval. */
  readonly backoff?: BackoffPolicy;
}

const DefaultRecheckMs = 5 * 60_000;

function launchedStatus(claim: NodeClaim): string | undefined {
  return getCondition(claim.status?.conditions, ConditionTypes.Launched)?.status;
}

/** Our own Drifted writes are status-only: skip them, but not the Launched transition we wait for. */
function claimEventMatters(event: InformerEvent & { readonly object: NodeClaim }): boolean {
  if (changedBeyondStatus(event)) return true;
  const previous = event.previous as NodeClaim | undefined;
  return previous === undefined || launchedStatus(previous) !== launchedStatus(event.object);
}

/** Node heartbeats are frequent; only label changes move requirements drift. */
function nodeLabelsChanged(event: InformerEvent): boolean {
  if (event.type !== 'MODIFIED' || event.previous === undefined) return true;
  return JSON.stringify(event.object.metadata.labels) !== JSON.stringify(event.previous.metadata.labels);
}

/** NodePool status (resources, nodes) changes all the time; only its spec can cause drift. */
function nodePoolSpecChanged(event: InformerEvent): boolean {
  if (event.type !== 'MODIFIED' || event.previous === undefined) return true;
  const spec = (o: unknown) => JSON.stringify((o as { spec?: unknown }).spec);
  return spec(event.object) !== spec(event.previous);
}

/**
 * `nodeclaim.disruption`: keeps each Launched NodeClaim's `Drifted` condition true to whether it
 * drifted — from its NodePool (NodePoolDrifted, RequirementsDrifted: `staticDrift`, the same
 * function the disruption candidates use) or, failing that, from its NodeClass as the cloud
 * provider's `isDrifted` reports (the provider's reason) — and removes the condition once it no
 * longer holds. The disruption loop replaces Drifted nodes within budgets; this controller only
 * records. Runs on claim, Node-label and NodePool-spec changes and every `recheckIntervalMs`
 * (provider drift has no Kubernetes event). A failing `isDrifted` leaves the condition as it is,
 * is logged with its error, and is retried with backoff.
 */
export class NodeClaimDisruptionController implements Controller {
  readonly name = 'nodeclaim.disruption';
  readonly watches;
  readonly maxConcurrentReconciles = 10;
  readonly backoff: BackoffPolicy;
  readonly #deps: LifecycleDependencies;
  readonly #recheckMs: number;
  /** Parsed NodePools by the frozen stored version they came from. */
  readonly #parsed = new WeakMap<object, NodePoolLookup>();

  constructor(deps: LifecycleDependencies, options: NodeClaimDisruptionOptions = {}) {
    this.#deps = deps;
    this.#recheckMs = options.recheckIntervalMs ?? DefaultRecheckMs;
    this.backoff = options.backoff ?? { baseMs: 1_000, maxMs: this.#recheckMs };
    this.watches = [
      watchSelf(NodeClaims, claimEventMatters),
      watchMapped(Nodes, (node, cache, event) =>
        nodeLabelsChanged(event) ? claimKeysForNode(node, cache) : [],
      ),
      watchMapped(NodePools, (pool, cache, event) =>
        nodePoolSpecChanged(event)
          ? cache
              .list(NodeClaims, (c) => c.metadata.labels?.[Labels.NodePool] === pool.metadata.name)
              .map((c) => ({ name: c.metadata.name ?? '' }))
          : [],
      ),
    ];
  }

  async reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const { cluster, cloudProvider } = this.#deps;
    const claim = await this.#find(key);
    if (claim === undefined || claim.metadata.deletionTimestamp !== undefined) return undefined;
    if (!isManaged(claim, cloudProvider)) return undefined;
    const recheck = { requeueAfterMs: this.#recheckMs };

    const before = driftBeforeCloudProvider({
      claim,
      nodeLabels: (await this.#node(claim, context))?.metadata.labels,
      pool: await this.#nodePool(claim),
    });
    let verdict: DriftVerdict;
    if (before !== 'ask-cloud-provider') verdict = before;
    else {
      try {
        verdict = cloudProviderVerdict(cloudProvider.name, await cloudProvider.isDrifted(claim));
      } catch (err) {
        context.logger.error(
          { err, NodeClaim: objectRef(claim) },
          `could not check drift: cloud provider ${cloudProvider.name} isDrifted failed (${String((err as Error)?.message ?? err)}); keeping the Drifted condition as it is and retrying`,
        );
        return { requeue: true };
      }
    }

    const conditions = conditionsAfter(claim.status?.conditions, verdict, this.#deps.clock.now());
    if (conditions === undefined) return recheck;
    try {
      await cluster.updateStatus(NodeClaims, { ...claim, status: { ...claim.status, conditions } });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      // Someone else wrote the claim since we read it: decide again on the new version.
      if (isConflict(err)) return { requeue: true };
      throw err;
    }
    await this.#report(claim, verdict, context);
    return recheck;
  }

  async #report(claim: NodeClaim, verdict: DriftVerdict, context: ReconcileContext): Promise<void> {
    const wasDrifted = getCondition(claim.status?.conditions, ConditionTypes.Drifted)?.status === 'True';
    if (!verdict.drifted) {
      context.logger.info({ NodeClaim: objectRef(claim), why: verdict.why }, 'nodeclaim no longer drifted');
      return;
    }
    context.logger.info(
      { NodeClaim: objectRef(claim), reason: verdict.reason, message: verdict.message },
      'marked nodeclaim as drifted',
    );
    if (wasDrifted) return;
    await this.#deps.events.publish({
      object: claim,
      type: 'Normal',
      reason: EventReasons.Drifted,
      message: `NodeClaim drifted (${verdict.reason}): ${verdict.message}; disruption replaces it within the NodePool's budgets`,
    });
  }

  async #find(key: ObjectKey): Promise<NodeClaim | undefined> {
    try {
      return await this.#deps.cluster.get(NodeClaims, key);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async #node(claim: NodeClaim, context: ReconcileContext): Promise<Node | undefined> {
    const [key] = nodeKeysForClaim(claim, context.cache);
    if (key === undefined) return undefined;
    try {
      return await this.#deps.cluster.get(Nodes, key);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async #nodePool(claim: NodeClaim): Promise<NodePoolLookup> {
    const name = claim.metadata.labels?.[Labels.NodePool];
    if (name === undefined) return { problem: `NodeClaim has no ${Labels.NodePool} label` };
    let raw: unknown;
    try {
      raw = await this.#deps.cluster.get(NodePools, { name });
    } catch (err) {
      if (isNotFound(err)) return { problem: `NodePool ${name} does not exist` };
      throw err;
    }
    // The in-memory cluster hands out each stored version as one frozen object, so a version
    // read on every reconcile is parsed once; a client that reads copies just misses.
    if (typeof raw !== 'object' || raw === null) return this.#parse(name, raw);
    let lookup = this.#parsed.get(raw);
    if (lookup === undefined) {
      lookup = this.#parse(name, raw);
      if (!Object.isFrozen(raw)) return lookup;
      // Kept with the parse, the drift basis is derived once per stored version too: hashing
      // the template for every claim's reconcile was most of the drift check's cost at 500 nodes.
      if ('nodePool' in lookup) lookup = { nodePool: lookup.nodePool, basis: driftBasis(lookup.nodePool) };
      this.#parsed.set(raw, lookup);
    }
    return lookup;
  }

  #parse(name: string, raw: unknown): NodePoolLookup {
    const parsed = nodePoolSchema.safeParse(raw);
    if (!parsed.success) return { problem: `NodePool ${name} is invalid: ${z.prettifyError(parsed.error)}` };
    return { nodePool: parsed.data };
  }
}
