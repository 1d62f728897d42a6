import { celList } from '../common/cel.js';
import { Labels, NormalizedLabels, WellKnownLabels } from '../labels.js';

/**
 * Label keys users may not put in a NodePool's requirements or template labels, because the
 * kubelet refuses them or nodewright sets them itself. The five rules are disjoint, so a key
 * breaks at most one of them and gets one message. Domains match by suffix, as Karpenter's do
 * (`example.kubernetes.io` is inside `kubernetes.io`).
 */
export interface RestrictedLabelRule {
  readonly name: string;
  readonly message: string;
  /** True if the key is allowed by this rule. */
  readonly allows: (key: string) => boolean;
  /** The same test in CEL, for a string expression `key`. */
  readonly cel: (key: string) => string;
  /** Only NodePools reject this; NodeClaims carry the key. */
  readonly nodePoolOnly?: boolean;
}

/** Keys inside kubernetes.io that nodes may carry: the well-known labels and their beta aliases. */
export const AllowedKubernetesIoLabels: readonly string[] = [
  ...[...WellKnownLabels].filter((k) => !domainOf(k).endsWith('karpenter.sh')),
  ...NormalizedLabels.keys(),
].sort();

const KarpenterAllowed: readonly string[] = [Labels.CapacityType, Labels.NodePool];

/** The part before the slash, or '' for a key without one. */
export function domainOf(key: string): string {
  const slash = key.indexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

/** CEL for the domain and its slash (`'kubernetes.io/'`), or '' without a slash. */
function celDomain(key: string): string {
  return `${key}.find('^[^/]*/')`;
}

export const RestrictedLabelRules: readonly RestrictedLabelRule[] = [
  {
    name: 'kubernetes.io domain',
    message:
      'label domain "kubernetes.io" is restricted: use a well-known label (kubernetes.io/arch, kubernetes.io/os, topology.kubernetes.io/zone, topology.kubernetes.io/region, node.kubernetes.io/instance-type) or a label under node.kubernetes.io or node-restriction.kubernetes.io',
    allows: (key) => {
      const d = domainOf(key);
      return (
        !d.endsWith('kubernetes.io') ||
        d.endsWith('node.kubernetes.io') ||
        d.endsWith('node-restriction.kubernetes.io') ||
        AllowedKubernetesIoLabels.includes(key) ||
        key === Labels.Hostname
      );
    },
    cel: (key) =>
      `!${celDomain(key)}.endsWith('kubernetes.io/') || ${celDomain(key)}.endsWith('node.kubernetes.io/') || ${celDomain(key)}.endsWith('node-restriction.kubernetes.io/') || ${key} in ${celList([...AllowedKubernetesIoLabels, Labels.Hostname])}`,
  },
  {
    name: 'k8s.io domain',
    message: 'label domain "k8s.io" is restricted (labels under kops.k8s.io are allowed)',
    allows: (key) => {
      const d = domainOf(key);
      return !d.endsWith('k8s.io') || d.endsWith('kops.k8s.io');
    },
    cel: (key) => `!${celDomain(key)}.endsWith('k8s.io/') || ${celDomain(key)}.endsWith('kops.k8s.io/')`,
  },
  {
    name: 'karpenter.sh domain',
    message:
      'label domain "karpenter.sh" is restricted: nodewright sets these labels itself (karpenter.sh/capacity-type is the one you may use)',
    allows: (key) => !domainOf(key).endsWith('karpenter.sh') || KarpenterAllowed.includes(key),
    cel: (key) => `!${celDomain(key)}.endsWith('karpenter.sh/') || ${key} in ${celList(KarpenterAllowed)}`,
  },
  {
    name: 'nodepool label',
    message:
      'label "karpenter.sh/nodepool" is restricted: every node gets its NodePool\'s name there automatically',
    allows: (key) => key !== Labels.NodePool,
    cel: (key) => `${key} != '${Labels.NodePool}'`,
    nodePoolOnly: true,
  },
  {
    name: 'hostname label',
    message: 'label "kubernetes.io/hostname" is restricted: every node has its own hostname',
    allows: (key) => key !== Labels.Hostname,
    cel: (key) => `${key} != '${Labels.Hostname}'`,
  },
];

/** The rules that apply to NodePools (all) or NodeClaims (all but the nodepool label). */
export function restrictedLabelRules(kind: 'NodePool' | 'NodeClaim'): readonly RestrictedLabelRule[] {
  return RestrictedLabelRules.filter((r) => kind === 'NodePool' || !r.nodePoolOnly);
}

/** Why a key may not be used in a NodePool (or NodeClaim), or undefined if it may. */
export function restrictedLabelMessage(
  key: string,
  kind: 'NodePool' | 'NodeClaim' = 'NodePool',
): string | undefined {
  return restrictedLabelRules(kind).find((r) => !r.allows(key))?.message;
}
