import { Labels } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import { isNotFound } from '../../kube/errors.js';
import { jsonEqual } from '../../kube/json.js';
import type { ObjectKey } from '../../kube/object.js';
import type { ClusterPort } from '../../kube/port.js';
import { NodeClaims, NodePools } from '../../kube/resource-types.js';
import { listCachedOr } from '../../lifecycle/lookup.js';
import {
  type Controller,
  type ReconcileContext,
  type ReconcileResult,
  watchMapped,
  watchSelf,
} from '../../operator/runtime/controller.js';
import {
  addResources,
  formatResourceList,
  parseResourceList,
  type ResourceList,
} from '../../scheduling/resources/resource-list.js';

/**
 * `status.resources` and `status.nodes` of a NodePool from its NodeClaims; `capacityOf` parses a
 * claim's `status.capacity` (a memo of it, in the controller).
 */
export function nodePoolUsage(
  claims: readonly NodeClaim[],
  capacityOf: (capacity: Record<string, string> | undefined) => ResourceList = parseResourceList,
): {
  resources: Record<string, string>;
  nodes: number;
} {
  const total = addResources(...claims.map((c) => capacityOf(c.status?.capacity)));
  return { resources: formatResourceList(total), nodes: claims.length };
}

/** Whether a change of a claim leaves its NodePool's count and resources as they were. */
export function sameCount(previous: NodeClaim, current: NodeClaim): boolean {
  return (
    previous.metadata.labels?.[Labels.NodePool] === current.metadata.labels?.[Labels.NodePool] &&
    jsonEqual(previous.status?.capacity ?? {}, current.status?.capacity ?? {})
  );
}

/**
 * `nodepool.counter`: keeps a NodePool's `status.resources` (the capacity of its NodeClaims,
 * added up, launched ones contributing once their capacity is known) and `status.nodes` (how
 * many NodeClaims it has, in flight and deleting included, as limits count them).
 */
export class NodePoolCounterController implements Controller {
  readonly name = 'nodepool.counter';
  readonly watches;
  readonly #cluster: ClusterPort;
  /**
   * Parsed capacities by the (frozen, shared until changed) capacity object: a reconcile adds
   * up every claim of the pool, and thousands of claims coming up reconcile it thousands of times.
   */
  readonly #capacities = new WeakMap<object, ResourceList>();

  constructor(deps: { readonly cluster: ClusterPort }) {
    this.#cluster = deps.cluster;
    const poolsOf = (claim: NodeClaim, previous: NodeClaim | undefined): ObjectKey[] => {
      const names = new Set([
        claim.metadata.labels?.[Labels.NodePool],
        previous?.metadata.labels?.[Labels.NodePool],
      ]);
      return [...names].flatMap((name) => (name === undefined ? [] : [{ name }]));
    };
    this.watches = [
      watchSelf(NodePools),
      watchMapped(NodeClaims, (claim, _cache, event) => {
        const previous = event.previous as NodeClaim | undefined;
        // A claim's launch, registration and initialisation are status updates that leave what
        // is counted alone; reconciling the pool for each lists all of its claims again, which
        // at thousands of claims coming up at once is quadratic.
        if (event.type === 'MODIFIED' && previous !== undefined && sameCount(previous, claim)) return [];
        return poolsOf(claim, previous);
      }),
    ];
  }

  async reconcile(key: ObjectKey, context: ReconcileContext): Promise<ReconcileResult | undefined> {
    let pool: NodePool;
    try {
      pool = await this.#cluster.get(NodePools, key);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
    const claims = await listCachedOr(
      this.#cluster,
      context.cache,
      NodeClaims,
      (c) => c.metadata.labels?.[Labels.NodePool] === key.name,
    );
    const usage = nodePoolUsage(claims, (capacity) => {
      if (capacity === undefined) return parseResourceList(capacity);
      let parsed = this.#capacities.get(capacity);
      if (parsed === undefined) {
        parsed = parseResourceList(capacity);
        this.#capacities.set(capacity, parsed);
      }
      return parsed;
    });
    const before = pool.status?.resources ?? {};
    if (JSON.stringify(before) === JSON.stringify(usage.resources) && pool.status?.nodes === usage.nodes)
      return undefined;
    // Merge patch: resources that dropped to nothing must be removed explicitly.
    const resources: Record<string, string | null> = { ...usage.resources };
    for (const name of Object.keys(before)) if (!(name in usage.resources)) resources[name] = null;
    await this.#cluster.patchStatus(NodePools, key, { status: { resources, nodes: usage.nodes } });
    return undefined;
  }
}
