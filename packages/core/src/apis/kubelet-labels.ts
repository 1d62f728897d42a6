import { LabelDomainExceptions, RestrictedLabelDomains } from './labels.js';

/** Labels under kubernetes.io that the NodeRestriction admission plugin lets a kubelet set. */
const KubeletAllowed: ReadonlySet<string> = new Set([
  'kubernetes.io/arch',
  'kubernetes.io/os',
  'kubernetes.io/hostname',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
  'beta.kubernetes.io/arch',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/instance-type',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
]);

function domainOf(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

function within(domain: string, parent: string): boolean {
  return domain === parent || domain.endsWith(`.${parent}`);
}

/**
 * The labels a node may register itself with (`--node-labels`): a kubelet asking for another
 * label in kubernetes.io or k8s.io is refused registration, so those are left to core, which
 * syncs NodeClaim labels onto the Node after it registers. karpenter.sh labels are kept (the
 * node carries its NodePool and capacity type from the first moment, as upstream).
 */
export function kubeletLabels(labels: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(labels)) {
    const domain = domainOf(key);
    const restricted = RestrictedLabelDomains.some((d) => d !== 'karpenter.sh' && within(domain, d));
    const excepted = LabelDomainExceptions.some((d) => within(domain, d)) || KubeletAllowed.has(key);
    if (!restricted || excepted) out[key] = value;
  }
  return out;
}
