import { durationMs } from '../../apis/common/duration.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import { ignoreNotFound, isNotFound } from '../../kube/errors.js';
import { type ObjectKey, parseTime } from '../../kube/object.js';
import { NodeClaims } from '../../kube/resource-types.js';
import type { LifecycleDependencies } from '../../lifecycle/dependencies.js';
import { EventReasons } from '../../lifecycle/events.js';
import { DisruptionReasons, recordNodeClaimDisrupted } from '../../lifecycle/metrics.js';
import {
  type Controller,
  type ReconcileContext,
  type ReconcileResult,
  watchSelf,
} from '../../operator/runtime/controller.js';
import { objectRef } from '../../operator/runtime/logger.js';

/** When the claim expires (creation + expireAfter, ms since epoch), or undefined for `Never`. */
export function expiryTime(claim: Pick<NodeClaim, 'metadata' | 'spec'>): number | undefined {
  const created = claim.metadata.creationTimestamp;
  const ttl = durationMs(claim.spec.expireAfter);
  if (created === undefined || ttl === undefined || !Number.isFinite(ttl)) return undefined;
  return parseTime(created) + ttl;
}

/**
 * `nodeclaim.expiration`: deletes a NodeClaim once creation + expireAfter has passed. Forceful:
 * no disruption budget or do-not-disrupt applies (the drain still honours PDBs until the
 * terminationGracePeriod). Requeues itself for the expiry time.
 */
export class ExpirationController implements Controller {
  readonly name = 'nodeclaim.expiration';
  readonly watches = [watchSelf(NodeClaims)];
  readonly maxConcurrentReconciles = 10;
  readonly #deps: LifecycleDependencies;

  constructor(deps: LifecycleDependencies) {
    this.#deps = deps;
  }

  async reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    let claim: NodeClaim;
    try {
      claim = await this.#deps.cluster.get(NodeClaims, key);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    if (claim.metadata.deletionTimestamp !== undefined) return undefined;
    const expiry = expiryTime(claim);
    if (expiry === undefined) return undefined;
    const now = this.#deps.clock.now();
    if (now < expiry) return { requeueAfterMs: expiry - now };
    try {
      await this.#deps.cluster.delete(NodeClaims, key);
    } catch (err) {
      ignoreNotFound(err);
      return undefined;
    }
    recordNodeClaimDisrupted(this.#deps.metrics, claim, DisruptionReasons.Expired);
    await this.#deps.events.publish({
      object: claim,
      type: 'Normal',
      reason: EventReasons.Expired,
      message: `NodeClaim expired after ${claim.spec.expireAfter}; deleting it`,
    });
    context.logger.info(
      { NodeClaim: objectRef(claim), expireAfter: claim.spec.expireAfter },
      'disrupting nodeclaim: expired',
    );
    return undefined;
  }
}
