/** The GCE labels nodewright puts on its instances, to find them again (list, get, garbage collection). */
export const InstanceLabelKeys = {
  Cluster: 'goog-k8s-cluster-name',
  NodePool: 'karpenter-sh-nodepool',
  NodeClaim: 'karpenter-sh-nodeclaim',
  NodeClass: 'karpenter-k8s-gcp-gcenodeclass',
} as const;

/**
 * A value as GCE labels accept it: lowercase letters, digits, `_` and `-`, at most 63. Kubernetes
 * names are already lowercase DNS labels or subdomains; dots become `_`.
 */
export function gceLabelValue(value: string): string {
  return value
    .toLowerCase()
    .replace(/[^a-z0-9_-]/g, '_')
    .slice(0, 63);
}

/** The instance's labels: the NodeClass's own, then nodewright's (which the schema reserves). */
export function instanceLabels(input: {
  readonly clusterName: string;
  readonly nodePool: string | undefined;
  readonly nodeClaim: string;
  readonly nodeClass: string;
  readonly userLabels?: Readonly<Record<string, string>> | undefined;
}): Record<string, string> {
  return {
    ...input.userLabels,
    [InstanceLabelKeys.Cluster]: gceLabelValue(input.clusterName),
    ...(input.nodePool === undefined ? {} : { [InstanceLabelKeys.NodePool]: gceLabelValue(input.nodePool) }),
    [InstanceLabelKeys.NodeClaim]: gceLabelValue(input.nodeClaim),
    [InstanceLabelKeys.NodeClass]: gceLabelValue(input.nodeClass),
  };
}

/** The instances.list filter for this cluster's instances, optionally one NodeClaim's. */
export function clusterFilter(clusterName: string, nodeClaim?: string): string {
  const cluster = `(labels.${InstanceLabelKeys.Cluster} = "${gceLabelValue(clusterName)}")`;
  const claim =
    nodeClaim === undefined
      ? `(labels.${InstanceLabelKeys.NodeClaim}:*)`
      : `(labels.${InstanceLabelKeys.NodeClaim} = "${gceLabelValue(nodeClaim)}")`;
  return `${cluster} AND ${claim}`;
}
