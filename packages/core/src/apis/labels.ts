/**
 * Well-known label, annotation, taint and finalizer names. Values match Karpenter's so that
 * nodes, pods and manifests written for Karpenter mean the same thing here.
 */

export const Group = 'karpenter.sh';

export const Labels = {
  NodePool: 'karpenter.sh/nodepool',
  CapacityType: 'karpenter.sh/capacity-type',
  Initialized: 'karpenter.sh/initialized',
  Registered: 'karpenter.sh/registered',
  DoNotSyncTaints: 'karpenter.sh/do-not-sync-taints',
  Zone: 'topology.kubernetes.io/zone',
  Region: 'topology.kubernetes.io/region',
  InstanceType: 'node.kubernetes.io/instance-type',
  Arch: 'kubernetes.io/arch',
  OS: 'kubernetes.io/os',
  Hostname: 'kubernetes.io/hostname',
  WindowsBuild: 'node.kubernetes.io/windows-build',
} as const;

export const CapacityTypes = {
  Spot: 'spot',
  OnDemand: 'on-demand',
  Reserved: 'reserved',
} as const;
export type CapacityType = (typeof CapacityTypes)[keyof typeof CapacityTypes];

/**
 * Core's well-known labels: every instance type defines them and a pod may select on them before
 * a node exists, whether or not its NodePool names them. Providers and catalogs add their own
 * (see {@link withWellKnownLabels}).
 */
export const WellKnownLabels: ReadonlySet<string> = new Set([
  Labels.NodePool,
  Labels.Zone,
  Labels.Region,
  Labels.InstanceType,
  Labels.Arch,
  Labels.OS,
  Labels.CapacityType,
  Labels.WindowsBuild,
]);

/**
 * Core's well-known labels plus `extra` (a provider's or a catalog's), as Karpenter's providers
 * insert theirs into its WellKnownLabels. Returns core's own set when `extra` adds nothing.
 */
export function withWellKnownLabels(extra: Iterable<string> | undefined): ReadonlySet<string> {
  if (extra === undefined) return WellKnownLabels;
  let out: Set<string> | undefined;
  for (const key of extra) {
    if (WellKnownLabels.has(key) || out?.has(key)) continue;
    out ??= new Set(WellKnownLabels);
    out.add(key);
  }
  return out ?? WellKnownLabels;
}

/** Deprecated label keys and the key they mean; requirements are normalised to the latter. */
export const NormalizedLabels: ReadonlyMap<string, string> = new Map([
  ['failure-domain.beta.kubernetes.io/zone', Labels.Zone],
  ['failure-domain.beta.kubernetes.io/region', Labels.Region],
  ['beta.kubernetes.io/arch', Labels.Arch],
  ['beta.kubernetes.io/os', Labels.OS],
  ['beta.kubernetes.io/instance-type', Labels.InstanceType],
]);

/** Label domains users may not set on NodePools; a few labels within them are allowed. */
export const RestrictedLabelDomains: readonly string[] = ['kubernetes.io', 'k8s.io', 'karpenter.sh'];

/** Sub-domains of the restricted ones that kubelet lets nodes label themselves with. */
export const LabelDomainExceptions: readonly string[] = [
  'kops.k8s.io',
  'node.kubernetes.io',
  'node-restriction.kubernetes.io',
];

export const Annotations = {
  DoNotDisrupt: 'karpenter.sh/do-not-disrupt',
  NodePoolHash: 'karpenter.sh/nodepool-hash',
  NodePoolHashVersion: 'karpenter.sh/nodepool-hash-version',
  NodeClaimTerminationTimestamp: 'karpenter.sh/nodeclaim-termination-timestamp',
  NodeClaimMinValuesRelaxed: 'karpenter.sh/nodeclaim-min-values-relaxed',
} as const;

export const Finalizers = {
  Termination: 'karpenter.sh/termination',
} as const;

export const Taints = {
  Disrupted: { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' },
  Unregistered: { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
} as const;
