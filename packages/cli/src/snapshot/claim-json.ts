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
  return {
    nodePool: claim.nodePool,
    instanceTypes: claim.instanceTypes.map((t) => t.name),
    requirements: claim.requirements.toNodeSelectorRequirements(),
    pods: claim.pods.map(podId),
    requests: formatResourceList(claim.requests),
    price: claim.price,
  };
}
