import { stableHash } from '@nodewright/core/apis';
import type { AKSNodeClass } from './aksnodeclass.js';

export const AKSNodeClassAnnotations = {
  /** On NodeClaims: the hash of the AKSNodeClass they were launched from. */
  Hash: 'karpenter.azure.com/aksnodeclass-hash',
  HashVersion: 'karpenter.azure.com/aksnodeclass-hash-version',
  /** On NodeClaims: the AKSNodeClass status's Kubernetes version when they were launched. */
  KubernetesVersion: 'karpenter.azure.com/kubernetes-version',
} as const;

/** Version of {@link aksNodeClassHash}; a change re-stamps NodeClaims instead of drifting them. */
export const AKSNodeClassHashVersion = 'nodewright-v1';

/**
 * The static-drift hash of an AKSNodeClass: its spec without the image fields, whose drift is
 * detected from the image the status resolves (a new image version is not a spec change).
 */
export function aksNodeClassHash(nodeClass: Pick<AKSNodeClass, 'spec'>): string {
  const { imageFamily: _family, imageVersion: _version, ...rest } = nodeClass.spec;
  return stableHash({ spec: rest });
}
