import type { NodePool } from '../../apis/v1/nodepool.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import { type PoolDomainValues, poolDomainValues } from './node-pool-domains.js';
import type { Pool } from './pools.js';
import type { WellKnown } from './well-known.js';

const NoTypes: readonly InstanceType[] = Object.freeze([]);

/**
 * What consecutive solves may share because it depends only on inputs that rarely change: a
 * NodePool's instance types with the well-known labels applied, and the topology domains the
 * NodePool can launch into. A caller that solves repeatedly (the provisioner, every disruption
 * pass and each of its consolidation candidates) keeps one and passes it as `SolverInput.cache`.
 *
 * Entries are keyed by object identity — the NodePool object, the instance-type array the
 * provider returned, the well-known label set — so the contract is that callers never mutate
 * those in place (ClusterState replaces a NodePool on every change; providers return a new array
 * when offerings change). Entries go with their keys (weak maps). Results are the same with or
 * without a cache.
 */
export class SolverCache {
  readonly #types = new WeakMap<
    readonly InstanceType[],
    { readonly labels: ReadonlySet<string> | undefined; readonly types: readonly InstanceType[] }
  >();
  readonly #domains = new WeakMap<
    NodePool,
    { readonly types: readonly InstanceType[]; readonly values: PoolDomainValues }
  >();

  /** The provider's types for a NodePool with `wellKnown` applied (see WellKnown.normalize). */
  normalizedTypes(
    raw: readonly InstanceType[] | undefined,
    labels: ReadonlySet<string> | undefined,
    wellKnown: WellKnown,
  ): readonly InstanceType[] {
    if (raw === undefined) return NoTypes;
    const hit = this.#types.get(raw);
    if (hit !== undefined && hit.labels === labels) return hit.types;
    const types = raw.map((t) => wellKnown.normalize(t));
    this.#types.set(raw, { labels, types });
    return types;
  }

  /** The pool's domain values (see poolDomainValues), reused while its NodePool and types are. */
  domainValues(pool: Pool): PoolDomainValues {
    const hit = this.#domains.get(pool.nodePool);
    if (hit !== undefined && hit.types === pool.allTypes) return hit.values;
    const values = poolDomainValues(pool.requirements, pool.allTypes);
    this.#domains.set(pool.nodePool, { types: pool.allTypes, values });
    return values;
  }
}
