import { canonicalJson, stableHash } from '@nodewright/core/apis';
import { type AMIFamily, amiFamilyOfAlias, type EC2NodeClass } from './ec2nodeclass.js';

export const EC2NodeClassAnnotations = {
  /** On NodeClaims: the hash of the EC2NodeClass they were launched from. */
  Hash: 'karpenter.k8s.aws/ec2nodeclass-hash',
  HashVersion: 'karpenter.k8s.aws/ec2nodeclass-hash-version',
} as const;

/**
 * Version of `ec2NodeClassHash`. Distinct from Karpenter's ("v5") so NodeClaims Karpenter
 * launched are re-stamped rather than seen as drifted.
 */
export const EC2NodeClassHashVersion = 'nodewright-v1';

/** Fields whose changes are detected dynamically (by what they resolve to), not by the hash. */
const NotHashed = [
  'subnetSelectorTerms',
  'securityGroupSelectorTerms',
  'capacityReservationSelectorTerms',
  'amiSelectorTerms',
  'amiFamily',
  'ipPrefixCount',
] as const;

/** Maps whose entries are data: a `false` or empty value inside them still counts. */
const DataMaps = new Set([
  'tags',
  'systemReserved',
  'kubeReserved',
  'evictionHard',
  'evictionSoft',
  'evictionSoftGracePeriod',
]);

/** The AMI family in effect: `amiFamily`, else the alias's family. */
export function resolvedAmiFamily(spec: EC2NodeClass['spec']): AMIFamily | undefined {
  if (spec.amiFamily !== undefined) return spec.amiFamily;
  const alias = spec.amiSelectorTerms.find((t) => t.alias !== undefined)?.alias;
  return alias === undefined ? undefined : amiFamilyOfAlias(alias);
}

/**
 * The static-drift hash of an EC2NodeClass: its spec without the selector terms (drift of
 * those is detected from what they resolve to), with the resolved AMI family instead of the
 * literal field (so setting `amiFamily` to what an alias implies is no change), and the
 * cluster CA bundle. As upstream, zero values (false, 0, "", empty lists and maps) count as
 * unset and every list is a set; the result is hashed like the NodePool hash.
 */
export function ec2NodeClassHash(nodeClass: Pick<EC2NodeClass, 'spec'>, caBundle?: string): string {
  const spec: Record<string, unknown> = { ...nodeClass.spec };
  for (const field of NotHashed) delete spec[field];
  return stableHash({
    spec: zeroless(spec),
    amiFamily: resolvedAmiFamily(nodeClass.spec),
    caBundle: caBundle || undefined,
  });
}

function zeroless(value: unknown, isDataMap = false): unknown {
  if (Array.isArray(value)) {
    const items = value.map((v) => zeroless(v)).filter((v) => v !== undefined);
    if (items.length === 0) return undefined;
    return items.sort((a, b) => (canonicalJson(a) < canonicalJson(b) ? -1 : 1));
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      const kept = isDataMap ? member : zeroless(member, DataMaps.has(key));
      if (kept !== undefined) out[key] = kept;
    }
    return Object.keys(out).length === 0 ? undefined : out;
  }
  if (value === false || value === 0 || value === '' || value === null) return undefined;
  return value;
}
