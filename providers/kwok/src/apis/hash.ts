import { stableHash } from '@nodewright/core/apis';
import type { KWOKNodeClass } from './kwoknodeclass.js';

export const KWOKNodeClassAnnotations = {
  /** On KWOKNodeClasses, NodeClaims and Nodes: the hash of the class spec at launch / now. */
  Hash: 'karpenter.kwok.sh/kwoknodeclass-hash',
  HashVersion: 'karpenter.kwok.sh/kwoknodeclass-hash-version',
} as const;

/** Version of `kwokNodeClassHash`; bump when the hashed fields change, so old hashes are re-stamped. */
export const KWOKNodeClassHashVersion = 'nodewright-v1';

/**
 * The static-drift hash of a KWOKNodeClass: its spec, with unset and empty fields ignored so
 * that writing a default explicitly is no change.
 */
export function kwokNodeClassHash(nodeClass: Pick<KWOKNodeClass, 'spec'>): string {
  const spec: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(nodeClass.spec ?? {})) {
    if (value !== undefined && value !== '') spec[key] = value;
  }
  return stableHash({ spec });
}
