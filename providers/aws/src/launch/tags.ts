import { Labels } from '@nodewright/core/apis';

/** Tag keys nodewright puts on what it creates; the same keys Karpenter uses. */
export const TagKeys = {
  NodePool: Labels.NodePool,
  NodeClaim: 'karpenter.sh/nodeclaim',
  EC2NodeClass: 'karpenter.k8s.aws/ec2nodeclass',
  EksClusterName: 'eks:eks-cluster-name',
  /** Also names the cluster on launch templates, which carry no per-claim tags. */
  Cluster: 'karpenter.k8s.aws/cluster',
  Name: 'Name',
} as const;

/** `kubernetes.io/cluster/<name>`: its value `owned` marks what the cluster may delete. */
export function clusterTagKey(clusterName: string): string {
  return `kubernetes.io/cluster/${clusterName}`;
}

/**
 * Tags of a launch template and what it creates: the NodeClass's own tags, then the ownership
 * tags (set last, so a NodeClass cannot override them; the schema already forbids it).
 */
export function launchTemplateTags(input: {
  clusterName: string;
  nodeClassName: string;
  nodeClassTags: Readonly<Record<string, string>> | undefined;
}): Record<string, string> {
  return {
    ...input.nodeClassTags,
    [clusterTagKey(input.clusterName)]: 'owned',
    [TagKeys.EksClusterName]: input.clusterName,
    [TagKeys.EC2NodeClass]: input.nodeClassName,
    [TagKeys.Cluster]: input.clusterName,
  };
}

/**
 * Tags of one NodeClaim's instance and volumes: the template's, plus the NodePool, the
 * NodeClaim (how a retry finds the instance) and a Name for the console.
 */
export function instanceTags(input: {
  clusterName: string;
  nodeClassName: string;
  nodeClassTags: Readonly<Record<string, string>> | undefined;
  nodePool: string;
  nodeClaim: string;
}): Record<string, string> {
  return {
    ...launchTemplateTags(input),
    [TagKeys.NodePool]: input.nodePool,
    [TagKeys.NodeClaim]: input.nodeClaim,
    [TagKeys.Name]: `${input.nodePool}/${input.nodeClaim}`,
  };
}
