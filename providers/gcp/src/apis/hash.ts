import { stableHash } from '@nodewright/core/apis';
import type { GCENodeClass } from './gcenodeclass.js';

export const GCENodeClassAnnotations = {
  /** On NodeClaims: the hash of the GCENodeClass they were launched from. */
  Hash: 'karpenter.k8s.gcp/gcenodeclass-hash',
  HashVersion: 'karpenter.k8s.gcp/gcenodeclass-hash-version',
} as const;

export const GCENodeClassHashVersion = 'nodewright-v1';

/**
 * The hash of the fields whose change drifts a node statically. Image selection is left out:
 * its drift is decided by what it resolves to (status.images), not by how it is written.
 */
export function gceNodeClassHash(nodeClass: Pick<GCENodeClass, 'spec'>): string {
  const { imageSelectorTerms: _terms, imageFamily: _family, ...hashed } = nodeClass.spec;
  return stableHash(hashed);
}
