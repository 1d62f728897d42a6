import { Labels } from '../../apis/labels.js';
import type { Requirement } from '../requirements/requirement.js';
import type { TaintLike } from '../taints/tolerations.js';
import type { NodePoolDomains } from '../topology/topology.js';
import type { Pool } from './pools.js';

/**
 * The topology domains NodePools can launch into, as Karpenter builds its domain groups: for every
 * NodePool and every instance type it may launch, each value the NodePool's requirements and the
 * type's requirements both allow, per key, with the NodePool's taints. Zones and capacity types
 * a type does not state as requirements come from its offerings.
 */
export function nodePoolDomains(pools: readonly Pool[]): NodePoolDomains {
  const out = new Map<string, Map<string, TaintLike[][]>>();
  const add = (key: string, value: string, taints: readonly TaintLike[]) => {
    let byValue = out.get(key);
    if (byValue === undefined) {
      byValue = new Map();
      out.set(key, byValue);
    }
    const sets = byValue.get(value);
    if (sets === undefined) byValue.set(value, [taints as TaintLike[]]);
    else if (!sets.includes(taints as TaintLike[])) sets.push(taints as TaintLike[]);
  };
  for (const pool of pools) {
    for (const type of pool.allTypes) {
      const keys = new Set([...pool.requirements.keys(), ...type.requirements.keys()]);
      for (const key of keys) {
        const a = pool.requirements.get(key);
        const b = type.requirements.get(key);
        const r: Requirement = a !== undefined && b !== undefined ? a.intersection(b) : (a ?? b)!;
        if (r.complement) continue;
        for (const v of r.values) add(key, v, pool.taints);
      }
      for (const [key, pick] of [
        [Labels.Zone, (o: { zone: string }) => o.zone],
        [Labels.CapacityType, (o: { capacityType: string }) => o.capacityType],
      ] as const) {
        if (type.requirements.has(key)) continue;
        const allowed = pool.requirements.get(key);
        for (const o of type.offerings) {
          const value = pick(o as never);
          if (allowed === undefined || allowed.has(value)) add(key, value, pool.taints);
        }
      }
    }
  }
  return out;
}
