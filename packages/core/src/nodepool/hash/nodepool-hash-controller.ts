import { Annotations, Labels } from '../../apis/labels.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import { nodePoolSchema } from '../../apis/v1/nodepool.js';
import { NodePoolHashVersion, nodePoolTemplateHash } from '../../apis/v1/nodepool-hash.js';
import { ignoreNotFound, isNotFound } from '../../kube/errors.js';
import type { ObjectKey } from '../../kube/object.js';
import type { ClusterPort } from '../../kube/port.js';
import { NodeClaims, NodePools } from '../../kube/resource-types.js';
import {
  type Controller,
  type ReconcileContext,
  type ReconcileResult,
  watchSelf,
} from '../../operator/runtime/controller.js';
import { objectRef } from '../../operator/runtime/logger.js';

/**
 * The hash annotations a NodeClaim of `nodePool` is created with — what the provisioner stamps
 * on new claims so drift can compare them with the pool later. Undefined when the pool does not
 * parse (its defaults cannot be known, so no hash either).
 */
export function nodeClaimHashAnnotations(nodePool: unknown): Record<string, string> | undefined {
  const parsed = nodePoolSchema.safeParse(nodePool);
  if (!parsed.success) return undefined;
  return {
    [Annotations.NodePoolHash]: nodePoolTemplateHash(parsed.data),
    [Annotations.NodePoolHashVersion]: NodePoolHashVersion,
  };
}

/**
 * `nodepool.hash`: keeps `karpenter.sh/nodepool-hash` (over the defaulted template) and
 * `karpenter.sh/nodepool-hash-version` on every NodePool. When the version changes (a new
 * release hashes differently), the pool's NodeClaims are re-stamped with the new hash instead
 * of all looking drifted.
 */
export class NodePoolHashController implements Controller {
  readonly name = 'nodepool.hash';
  readonly watches = [watchSelf(NodePools)];
  readonly #deps: { readonly cluster: ClusterPort };

  constructor(deps: { readonly cluster: ClusterPort }) {
    this.#deps = deps;
  }

  async reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    const { cluster } = this.#deps;
    let pool: NodePool;
    try {
      pool = await cluster.get(NodePools, key);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    if (pool.metadata.deletionTimestamp !== undefined) return undefined;
    const wanted = nodeClaimHashAnnotations(pool);
    if (wanted === undefined) return undefined;
    const current = pool.metadata.annotations ?? {};
    const previousVersion = current[Annotations.NodePoolHashVersion];
    if (
      current[Annotations.NodePoolHash] !== wanted[Annotations.NodePoolHash] ||
      previousVersion !== wanted[Annotations.NodePoolHashVersion]
    ) {
      await cluster.patch(NodePools, key, { metadata: { annotations: wanted } });
      context.logger.debug(
        { NodePool: objectRef(pool), hash: wanted[Annotations.NodePoolHash] },
        'stamped nodepool hash',
      );
    }
    if (previousVersion !== undefined && previousVersion !== NodePoolHashVersion) {
      const claims = await cluster.list(NodeClaims, { labelSelector: `${Labels.NodePool}=${key.name}` });
      for (const claim of claims.items) {
        if (claim.metadata.annotations?.[Annotations.NodePoolHashVersion] === NodePoolHashVersion) continue;
        await cluster
          .patch(NodeClaims, { name: claim.metadata.name ?? '' }, { metadata: { annotations: wanted } })
          .catch(ignoreNotFound);
      }
    }
    return undefined;
  }
}
