/** Tags nodewright puts on every VM, NIC and disk it creates (ARM keys cannot hold `/`). */
export const AzureTagKeys = {
  Cluster: 'karpenter.azure.com_cluster',
  NodePool: 'karpenter.sh_nodepool',
  NodeClaim: 'karpenter.sh_nodeclaim',
  AKSNodeClass: 'karpenter.azure.com_aksnodeclass',
} as const;

/** The NodeClass's tags, then the ownership tags (which the schema forbids the user to set). */
export function resourceTags(o: {
  readonly clusterName: string;
  readonly nodePool: string;
  readonly nodeClaim: string;
  readonly nodeClassName: string;
  readonly nodeClassTags?: Readonly<Record<string, string>> | undefined;
}): Record<string, string> {
  return {
    ...o.nodeClassTags,
    [AzureTagKeys.Cluster]: o.clusterName,
    [AzureTagKeys.NodePool]: o.nodePool,
    [AzureTagKeys.NodeClaim]: o.nodeClaim,
    [AzureTagKeys.AKSNodeClass]: o.nodeClassName,
  };
}
