import { Labels } from '../../apis/labels.js';
import type { Requirement } from '../requirements/requirement.js';
import type { Requirements } from '../requirements/requirements.js';
import type { TaintLike } from '../taints/tolerations.js';
import type { NodePoolDomains } from '../topology/topology.js';
import type { Pool } from './pools.js';

/**
 * The domain values one NodePool can launch into, per key, each key and value in the order it is
 * first met (types in the pool's order). Depends only on the NodePool's requirements and its
 * instance types, not on pods or nodes, so solves may share it (see SolverCache).
 */
export type PoolDomainValues = ReadonlyMap<string, readonly string[]>;

/**
 * For every instance type the NodePool may launch, each value the NodePool's requirements and the
 * type's requirements both allow, per key. Zones and capacity types a type does not state as
 * requirements come from its offerings.
 */
export function poolDomainValues(
  requirements: Requirements,
  types: Pick<Pool, 'allTypes'>['allTypes'],
): PoolDomainValues {
  const out = new Map<string, Set<string>>();
  const add = (key: string, value: string) => {
    let values = out.get(key);
    if (values === undefined) {
      values = new Set();
      out.set(key, values);
    }
    values.add(value);
  };
  for (const type of types) {
    const keys = new Set([...requirements.keys(), ...type.requirements.keys()]);
    for (const key of keys) {
      const a = requirements.get(key);
      const b = type.requirements.get(key);
      const r: Requirement = a !== undefined && b !== undefined ? a.intersection(b) : (a ?? b)!;
      if (r.complement) continue;
      for (const v of r.values) add(key, v);
    }
    for (const [key, pick] of [
      [Labels.Zone, (o: { zone: string }) => o.zone],
      [Labels.CapacityType, (o: { capacityType: string }) => o.capacityType],
    ] as const) {
      if (type.requirements.has(key)) continue;
      const allowed = requirements.get(key);
      for (const o of type.offerings) {
        const value = pick(o as never);
        if (allowed === undefined || allowed.has(value)) add(key, value);
      }
    }
  }
  return new Map([...out].map(([key, values]) => [key, [...values]]));
}

/**
 * The topology domains NodePools can launch into, as Karpenter builds its domain groups: each
 * key's values over every NodePool (see poolDomainValues), with the taints of the NodePools
 * offering each value. `valuesOf` gives a pool's values (a cache may answer it).
 */
export function nodePoolDomains(
  pools: readonly Pool[],
  valuesOf: (pool: Pool) => PoolDomainValues = (pool) => poolDomainValues(pool.requirements, pool.allTypes),
): NodePoolDomains {
  const out = new Map<string, Map<string, TaintLike[][]>>();
  for (const pool of pools) {
    const taints = pool.taints as TaintLike[];
    for (const [key, values] of valuesOf(pool)) {
      let byValue = out.get(key);
      if (byValue === undefined) {
        byValue = new Map();
        out.set(key, byValue);
      }
      for (const value of values) {
        const sets = byValue.get(value);
        if (sets === undefined) byValue.set(value, [taints]);
        else if (!sets.includes(taints)) sets.push(taints);
      }
    }
  }
  return out;
}
