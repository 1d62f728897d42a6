import type { Node } from '../../apis/kubernetes/node.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { isNodeClaimNotFound } from '../../cloudprovider/errors.js';
import { ignoreNotFound } from '../../kube/errors.js';
import { type ObjectKey, parseTime } from '../../kube/object.js';
import { NodeClaims, Nodes } from '../../kube/resource-types.js';
import { ConditionTypes, getCondition } from '../../lifecycle/conditions.js';
import type { LifecycleDependencies } from '../../lifecycle/dependencies.js';
import { EventReasons } from '../../lifecycle/events.js';
import { isManaged } from '../../lifecycle/lookup.js';
import { DisruptionReasons, recordNodeClaimDisrupted } from '../../lifecycle/metrics.js';
import { skipWhileUnsynced, UnsyncedRetryMs } from '../../operator/runtime/cache-sync.js';
import type { Controller, ReconcileContext, ReconcileResult } from '../../operator/runtime/controller.js';
import { objectRef } from '../../operator/runtime/logger.js';

/** Timing of garbage collection. */
export interface GarbageCollectionOptions {
  /** How often the cloud is listed (Karpenter: 2 min). */
  readonly intervalMs?: number;
  /** An instance without a NodeClaim is spared this long after launch (Karpenter: 30 s). */
  readonly instanceGraceMs?: number;
  /** A claim whose instance is gone is spared this long after Launched (Karpenter: 10 s). */
  readonly claimGraceMs?: number;
}

/** What one garbage-collection pass removes. */
export interface GarbageCollectionPlan {
  /** Cloud instances no NodeClaim accounts for, old enough to be leaks. */
  readonly instances: readonly NodeClaim[];
  /** Launched claims whose instance the cloud no longer lists (confirm with get before deleting). */
  readonly claims: readonly NodeClaim[];
}

/**
 * Decides a pass from the cloud's instances (listed first) and the cluster's claims and nodes
 * (listed after, so a claim launched in between is seen): an instance is owned when a claim
 * records its providerID, a Node carries it, or a claim without a providerID has the instance's
 * name (a launch whose status write is still in flight). `firstSeen` supplies a launch time for instances that
 * report none.
 */
export function planGarbageCollection(
  instances: readonly NodeClaim[],
  claims: readonly NodeClaim[],
  nodes: readonly Node[],
  now: number,
  options: Required<GarbageCollectionOptions>,
  firstSeen: (instance: NodeClaim) => number,
): GarbageCollectionPlan {
  const ownedIDs = new Set<string>();
  for (const c of claims) if (c.status?.providerID) ownedIDs.add(c.status.providerID);
  for (const n of nodes) if (n.spec.providerID) ownedIDs.add(n.spec.providerID);
  // A claim's name covers an instance only while the claim has no providerID (its launch's status
  // write in flight); once it records one, providerIDs decide (as upstream), so a second
  // instance launched for the same claim is a leak, not the claim's.
  const launching = new Set(claims.filter((c) => !c.status?.providerID).map((c) => c.metadata.name));
  const leaked = instances.filter((i) => {
    const id = i.status?.providerID;
    if (id === undefined || ownedIDs.has(id) || launching.has(i.metadata.name)) return false;
    const launched =
      i.metadata.creationTimestamp === undefined ? firstSeen(i) : parseTime(i.metadata.creationTimestamp);
    return now - launched >= options.instanceGraceMs;
  });
  const cloudIDs = new Set(instances.flatMap((i) => (i.status?.providerID ? [i.status.providerID] : [])));
  const orphaned = claims.filter((c) => {
    const id = c.status?.providerID;
    if (id === undefined || id === '' || c.metadata.deletionTimestamp !== undefined || cloudIDs.has(id))
      return false;
    const launched = getCondition(c.status?.conditions, ConditionTypes.Launched);
    if (launched?.status !== 'True') return false;
    return now - parseTime(launched.lastTransitionTime) >= options.claimGraceMs;
  });
  return { instances: leaked, claims: orphaned };
}

const SINGLETON: ObjectKey = { name: 'nodeclaim.garbagecollection' };

/**
 * `nodeclaim.garbagecollection`, a polling singleton: terminates cloud instances no NodeClaim
 * accounts for (leaks, e.g. a claim deleted while its launch was in flight) and deletes
 * NodeClaims whose instance is gone (confirmed with CloudProvider.get; skipped while a Ready
 * Node still reports for it).
 */
export class GarbageCollectionController implements Controller {
  readonly name = 'nodeclaim.garbagecollection';
  readonly watches = [];
  readonly initialKeys = [SINGLETON];
  readonly #deps: LifecycleDependencies;
  readonly #options: Required<GarbageCollectionOptions>;
  /** When each instance without a launch time was first listed (state of this controller only). */
  readonly #firstSeen = new Map<string, number>();

  constructor(deps: LifecycleDependencies, options: GarbageCollectionOptions = {}) {
    this.#deps = deps;
    this.#options = {
      intervalMs: options.intervalMs ?? 2 * 60_000,
      instanceGraceMs: options.instanceGraceMs ?? 30_000,
      claimGraceMs: options.claimGraceMs ?? 10_000,
    };
  }

  async reconcile(_key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const { cluster, cloudProvider, clock, events, metrics } = this.#deps;
    const unsynced = skipWhileUnsynced(context, UnsyncedRetryMs);
    if (unsynced !== undefined) return unsynced;
    const instances = await cloudProvider.list();
    const claims = (await cluster.list(NodeClaims)).items.filter((c) => isManaged(c, cloudProvider));
    const nodes = (await cluster.list(Nodes)).items;
    const now = clock.now();
    const seen = (i: NodeClaim) => {
      const id = i.status?.providerID ?? '';
      if (!this.#firstSeen.has(id)) this.#firstSeen.set(id, now);
      return this.#firstSeen.get(id)!;
    };
    const plan = planGarbageCollection(instances, claims, nodes, now, this.#options, seen);
    const listed = new Set(instances.map((i) => i.status?.providerID ?? ''));
    for (const id of [...this.#firstSeen.keys()]) if (!listed.has(id)) this.#firstSeen.delete(id);

    for (const instance of plan.instances) {
      try {
        await cloudProvider.delete(instance);
      } catch (err) {
        if (!isNodeClaimNotFound(err)) throw err;
      }
      for (const node of nodes.filter((n) => n.spec.providerID === instance.status?.providerID)) {
        await cluster.delete(Nodes, { name: node.metadata.name }).catch(ignoreNotFound);
      }
      context.logger.info(
        { 'provider-id': instance.status?.providerID, NodeClaim: objectRef(instance) },
        'garbage collecting instance with no nodeclaim',
      );
    }

    for (const claim of plan.claims) {
      const id = claim.status!.providerID!;
      try {
        await cloudProvider.get(id);
        continue;
      } catch (err) {
        if (!isNodeClaimNotFound(err)) throw err;
      }
      const node = nodes.find((n) => n.spec.providerID === id);
      // A kubelet still reporting Ready is proof the instance runs, whatever the cloud says.
      if (node?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) continue;
      try {
        await cluster.delete(NodeClaims, { name: claim.metadata.name ?? '' });
      } catch (err) {
        ignoreNotFound(err);
        continue;
      }
      recordNodeClaimDisrupted(metrics, claim, DisruptionReasons.GarbageCollected);
      await events.publish({
        object: claim,
        type: 'Warning',
        reason: EventReasons.GarbageCollected,
        message: `Instance ${id} no longer exists; deleting the NodeClaim`,
      });
      context.logger.info(
        { NodeClaim: objectRef(claim), 'provider-id': id },
        'garbage collecting nodeclaim with no instance',
      );
    }
    return { requeueAfterMs: this.#options.intervalMs };
  }
}
