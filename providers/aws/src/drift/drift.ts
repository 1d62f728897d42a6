import type { NodeClaim } from '@nodewright/core/apis';
import {
  type EC2NodeClass,
  EC2NodeClassAnnotations,
  EC2NodeClassHashVersion,
  ec2NodeClassHash,
} from '../apis/index.js';

/** The drift reasons the AWS provider reports (as Karpenter's AWS provider names them). */
export const AwsDriftReasons = {
  NodeClass: 'NodeClassDrift',
  AMI: 'AMIDrift',
  SecurityGroup: 'SecurityGroupDrift',
  Subnet: 'SubnetDrift',
} as const;

/** What the instance behind the claim runs with now (from DescribeInstances). */
export interface InstanceNetwork {
  readonly subnetId: string | undefined;
  readonly securityGroupIds: readonly string[];
}

/**
 * Why a NodeClaim no longer matches its EC2NodeClass, or undefined. Checked in order:
 * static drift (the hash annotation differs from the NodeClass's hash; skipped when the hash
 * version differs, since a hash of another version says nothing), the claim's image not among
 * status.amis, the instance's security groups not exactly status.securityGroups, its subnet
 * not among status.subnets. A dynamic check is skipped while the status field it compares with
 * is empty (not resolved yet), so an unready NodeClass never drifts every node at once.
 */
export function driftReason(input: {
  readonly nodeClaim: NodeClaim;
  readonly nodeClass: EC2NodeClass;
  readonly instance: InstanceNetwork | undefined;
  readonly caBundle?: string | undefined;
}): string | undefined {
  const { nodeClaim, nodeClass, instance } = input;
  const annotations = nodeClaim.metadata.annotations ?? {};
  const claimHash = annotations[EC2NodeClassAnnotations.Hash];
  if (
    claimHash !== undefined &&
    annotations[EC2NodeClassAnnotations.HashVersion] === EC2NodeClassHashVersion
  ) {
    if (claimHash !== ec2NodeClassHash(nodeClass, input.caBundle)) return AwsDriftReasons.NodeClass;
  }
  const status = nodeClass.status;
  const amis = status?.amis ?? [];
  const imageID = nodeClaim.status?.imageID;
  if (amis.length > 0 && imageID !== undefined && imageID !== '' && !amis.some((a) => a.id === imageID)) {
    return AwsDriftReasons.AMI;
  }
  if (instance === undefined) return undefined;
  const groups = (status?.securityGroups ?? []).map((g) => g.id);
  if (groups.length > 0 && !sameSet(groups, instance.securityGroupIds)) return AwsDriftReasons.SecurityGroup;
  const subnets = status?.subnets ?? [];
  if (
    subnets.length > 0 &&
    instance.subnetId !== undefined &&
    !subnets.some((s) => s.id === instance.subnetId)
  ) {
    return AwsDriftReasons.Subnet;
  }
  return undefined;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}
