import { asSet, nonEmpty, stableHash } from '../common/hash.js';
import type { NodePool } from './nodepool.js';
import type { Taint } from './taint.js';

/**
 * Version of the NodePool hash, written to `karpenter.sh/nodepool-hash-version`. Bump it when
 * the hashed fields or their serialisation change. It differs from Karpenter's own version
 * ("v3") on purpose: nodes Karpenter launched carry Karpenter's hash, and a different version
 * makes the drift check re-stamp them instead of treating every one as drifted.
 */
export const NodePoolHashVersion = 'nodewright-v1';

/**
 * The hash of a NodePool's template that drift compares with each NodeClaim's
 * `karpenter.sh/nodepool-hash` annotation. It covers what a node cannot change after launch:
 * template labels and annotations, taints, startup taints, nodeClassRef, expireAfter and
 * terminationGracePeriod. Requirements and disruption settings (budgets included) are left
 * out, because changing them does not make an existing node wrong.
 *
 * Serialisation: the object `{labels, annotations, taints, startupTaints, nodeClassRef,
 * expireAfter, terminationGracePeriod}` of the parsed (defaulted) NodePool, with empty maps and
 * lists and empty taint values left out, taint lists sorted (they are sets), and every object's
 * keys sorted; its JSON is hashed with SHA-256 (see `stableHash`).
 */
export function nodePoolTemplateHash(nodePool: Pick<NodePool, 'spec'>): string {
  const { metadata, spec } = nodePool.spec.template;
  return stableHash({
    labels: nonEmpty(metadata?.labels),
    annotations: nonEmpty(metadata?.annotations),
    taints: asSet(spec.taints?.map(taintForHash)),
    startupTaints: asSet(spec.startupTaints?.map(taintForHash)),
    nodeClassRef: {
      group: spec.nodeClassRef.group,
      kind: spec.nodeClassRef.kind,
      name: spec.nodeClassRef.name,
    },
    expireAfter: spec.expireAfter,
    terminationGracePeriod: spec.terminationGracePeriod,
  });
}

function taintForHash(taint: Taint): Taint {
  return {
    key: taint.key,
    effect: taint.effect,
    ...(taint.value ? { value: taint.value } : {}),
    ...(taint.timeAdded ? { timeAdded: taint.timeAdded } : {}),
  };
}
