import type {
  CreateFleetCommandInput,
  CreateFleetCommandOutput,
  CreateLaunchTemplateCommandInput,
  CreateLaunchTemplateCommandOutput,
  DeleteLaunchTemplateCommandInput,
  DeleteLaunchTemplateCommandOutput,
  DescribeImagesCommandInput,
  DescribeImagesCommandOutput,
  DescribeInstancesCommandInput,
  DescribeInstancesCommandOutput,
  DescribeInstanceTypeOfferingsCommandInput,
  DescribeInstanceTypeOfferingsCommandOutput,
  DescribeInstanceTypesCommandInput,
  DescribeInstanceTypesCommandOutput,
  DescribeLaunchTemplatesCommandInput,
  DescribeLaunchTemplatesCommandOutput,
  DescribeSecurityGroupsCommandInput,
  DescribeSecurityGroupsCommandOutput,
  DescribeSpotPriceHistoryCommandInput,
  DescribeSpotPriceHistoryCommandOutput,
  DescribeSubnetsCommandInput,
  DescribeSubnetsCommandOutput,
  TerminateInstancesCommandInput,
  TerminateInstancesCommandOutput,
} from '@aws-sdk/client-ec2';
import type { GetProductsCommandInput, GetProductsCommandOutput } from '@aws-sdk/client-pricing';
import type {
  DeleteMessageCommandInput,
  DeleteMessageCommandOutput,
  GetQueueUrlCommandInput,
  GetQueueUrlCommandOutput,
  ReceiveMessageCommandInput,
  ReceiveMessageCommandOutput,
} from '@aws-sdk/client-sqs';

/**
 * The EC2 calls the provider makes, and no others: the aggregated `EC2` client satisfies it
 * structurally, tests pass a fake, and the IAM policy in the README lists exactly these actions.
 */
export interface Ec2Api {
  describeSubnets(input: DescribeSubnetsCommandInput): Promise<DescribeSubnetsCommandOutput>;
  describeSecurityGroups(
    input: DescribeSecurityGroupsCommandInput,
  ): Promise<DescribeSecurityGroupsCommandOutput>;
  describeImages(input: DescribeImagesCommandInput): Promise<DescribeImagesCommandOutput>;
  describeInstanceTypes(
    input: DescribeInstanceTypesCommandInput,
  ): Promise<DescribeInstanceTypesCommandOutput>;
  describeInstanceTypeOfferings(
    input: DescribeInstanceTypeOfferingsCommandInput,
  ): Promise<DescribeInstanceTypeOfferingsCommandOutput>;
  describeSpotPriceHistory(
    input: DescribeSpotPriceHistoryCommandInput,
  ): Promise<DescribeSpotPriceHistoryCommandOutput>;
  describeLaunchTemplates(
    input: DescribeLaunchTemplatesCommandInput,
  ): Promise<DescribeLaunchTemplatesCommandOutput>;
  createLaunchTemplate(input: CreateLaunchTemplateCommandInput): Promise<CreateLaunchTemplateCommandOutput>;
  deleteLaunchTemplate(input: DeleteLaunchTemplateCommandInput): Promise<DeleteLaunchTemplateCommandOutput>;
  createFleet(input: CreateFleetCommandInput): Promise<CreateFleetCommandOutput>;
  describeInstances(input: DescribeInstancesCommandInput): Promise<DescribeInstancesCommandOutput>;
  terminateInstances(input: TerminateInstancesCommandInput): Promise<TerminateInstancesCommandOutput>;
}

/** The Pricing call the provider makes (on-demand prices). */
export interface PricingApi {
  getProducts(input: GetProductsCommandInput): Promise<GetProductsCommandOutput>;
}

/** The SQS calls the interruption consumer makes. */
export interface SqsApi {
  getQueueUrl(input: GetQueueUrlCommandInput): Promise<GetQueueUrlCommandOutput>;
  receiveMessage(input: ReceiveMessageCommandInput): Promise<ReceiveMessageCommandOutput>;
  deleteMessage(input: DeleteMessageCommandInput): Promise<DeleteMessageCommandOutput>;
}
