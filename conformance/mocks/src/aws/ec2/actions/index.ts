import { idempotentByClientToken } from '../client-token.js';
import type { Ec2Action } from '../context.js';
import {
  describeImages,
  describeInstanceTypeOfferings,
  describeInstanceTypes,
  describeSecurityGroups,
  describeSpotPriceHistory,
  describeSubnets,
} from './catalog.js';
import { createFleet } from './fleet.js';
import { createTags, describeInstances, terminateInstances } from './instances.js';
import { createLaunchTemplate, deleteLaunchTemplate, describeLaunchTemplates } from './launch-templates.js';

/** Exactly the actions the AWS provider calls (providers/aws/src/sdk/ec2-api.ts). */
export const EC2_ACTIONS: Readonly<Record<string, Ec2Action>> = {
  DescribeSubnets: describeSubnets,
  DescribeSecurityGroups: describeSecurityGroups,
  DescribeImages: describeImages,
  DescribeInstanceTypes: describeInstanceTypes,
  DescribeInstanceTypeOfferings: describeInstanceTypeOfferings,
  DescribeSpotPriceHistory: describeSpotPriceHistory,
  DescribeLaunchTemplates: describeLaunchTemplates,
  CreateLaunchTemplate: createLaunchTemplate,
  DeleteLaunchTemplate: deleteLaunchTemplate,
  CreateFleet: idempotentByClientToken(createFleet),
  DescribeInstances: describeInstances,
  TerminateInstances: terminateInstances,
  CreateTags: createTags,
};

export { instanceTypeXml } from './catalog.js';
export { instanceXml } from './instances.js';
