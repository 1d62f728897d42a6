import type { NewClaim, NodeSelectorRequirement } from '@nodewright/core/scheduling';
import { formatResourceList } from '@nodewright/core/scheduling';
import { podId } from './pod-role.js';

/** A new NodeClaim in the CLI contract's JSON (`schedule` nodeClaims, `disrupt` replacements). */
export interface NodeClaimJson {
  readonly nodePool: string;
  /** Launchable types, cheapest first. */
  readonly instanceTypes: string[];
  /** As they would appear in `NodeClaim.spec.requirements`. */
  readonly requirements: NodeSelectorRequirement[];
  /** `namespace/name` of each pod, in the solver's order. */
  readonly pods: string[];
  /** The pods' requests plus DaemonSet overhead, as canonical quantity strings. */
  readonly requests: Record<string, string>;
  /** The cheapest compatible available offering, per hour. */
  readonly price: number;
}

export function nodeClaimJson(claim: NewClaim): NodeClaimJson {
  return nodeClaimsJson([claim])[0]!;
}

/**
 * nodeClaimJson of each claim. The solver's claims share their requirements and type lists
 * where they are equal; each shared one is converted once (a requirement on the instance type
 * lists and sorts hundreds of names: a 5,000-pod `schedule` spent a tenth of its time there).
 */
export function nodeClaimsJson(claims: readonly NewClaim[]): NodeClaimJson[] {
  const requirements = new Map<NewClaim['requirements'], NodeSelectorRequirement[]>();
  const types = new Map<NewClaim['instanceTypes'], string[]>();
  return claims.map((claim) => ({
    nodePool: claim.nodePool,
    instanceTypes: memo(types, claim.instanceTypes, (ts) => ts.map((t) => t.name)),
    requirements: memo(requirements, claim.requirements, (r) => r.toNodeSelectorRequirements()),
    pods: claim.pods.map(podId),
    requests: formatResourceList(claim.requests),
    price: claim.price,
  }));
}

function memo<K, V>(cache: Map<K, V>, key: K, make: (key: K) => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make(key);
    cache.set(key, value);
  }
  return value;
}
