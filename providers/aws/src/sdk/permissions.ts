import type { Ec2Api, PricingApi, SqsApi } from './ec2-api.js';
import type { IamApi } from './iam-api.js';
import type { SsmApi } from './ssm-api.js';

/** For each method of a port, the IAM actions a call needs; a mapped type, so no method is missed or invented. */
export type PortPermissions<T> = { readonly [K in keyof T]-?: readonly string[] };

/**
 * The IAM actions each SDK call of the provider needs. The first action of each entry is the
 * call's own (`describeSubnets` -> `ec2:DescribeSubnets`); the others are what AWS checks in
 * addition: tag-on-create needs `ec2:CreateTags` / `iam:TagInstanceProfile`, launching needs
 * `ec2:RunInstances`, and putting a role in an instance profile needs `iam:PassRole`. The README's
 * IAM policy must allow exactly the union of these (a unit test compares them).
 */
export const ProviderPermissions: {
  readonly ec2: PortPermissions<Ec2Api>;
  readonly pricing: PortPermissions<PricingApi>;
  readonly sqs: PortPermissions<SqsApi>;
  readonly iam: PortPermissions<IamApi>;
  readonly ssm: PortPermissions<SsmApi>;
} = {
  ec2: {
    describeSubnets: ['ec2:DescribeSubnets'],
    describeSecurityGroups: ['ec2:DescribeSecurityGroups'],
    describeImages: ['ec2:DescribeImages'],
    describeInstanceTypes: ['ec2:DescribeInstanceTypes'],
    describeInstanceTypeOfferings: ['ec2:DescribeInstanceTypeOfferings'],
    describeSpotPriceHistory: ['ec2:DescribeSpotPriceHistory'],
    describeLaunchTemplates: ['ec2:DescribeLaunchTemplates'],
    createLaunchTemplate: ['ec2:CreateLaunchTemplate', 'ec2:CreateTags'],
    deleteLaunchTemplate: ['ec2:DeleteLaunchTemplate'],
    createFleet: ['ec2:CreateFleet', 'ec2:RunInstances', 'ec2:CreateTags'],
    describeInstances: ['ec2:DescribeInstances'],
    terminateInstances: ['ec2:TerminateInstances'],
  },
  pricing: { getProducts: ['pricing:GetProducts'] },
  sqs: {
    getQueueUrl: ['sqs:GetQueueUrl'],
    receiveMessage: ['sqs:ReceiveMessage'],
    deleteMessage: ['sqs:DeleteMessage'],
  },
  iam: {
    getInstanceProfile: ['iam:GetInstanceProfile'],
    createInstanceProfile: ['iam:CreateInstanceProfile', 'iam:TagInstanceProfile'],
    addRoleToInstanceProfile: ['iam:AddRoleToInstanceProfile', 'iam:PassRole'],
    removeRoleFromInstanceProfile: ['iam:RemoveRoleFromInstanceProfile'],
    deleteInstanceProfile: ['iam:DeleteInstanceProfile'],
  },
  ssm: { getParameter: ['ssm:GetParameter'] },
};

/** Every IAM action the provider needs, sorted. */
export function requiredActions(): string[] {
  const all = Object.values(ProviderPermissions).flatMap((port) =>
    Object.values(port as Record<string, readonly string[]>).flat(),
  );
  return [...new Set(all)].sort();
}
