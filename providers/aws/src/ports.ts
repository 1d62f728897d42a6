import type { InstanceType } from '@nodewright/core/cloudprovider';
import type { EC2NodeClass } from './apis/index.js';

/**
 * The launchable instance types for one EC2NodeClass: DescribeInstanceTypes facts, offerings in
 * the zones of the NodeClass's resolved subnets, prices (on-demand from Pricing, spot from the
 * spot price history, the static table until then), allocatable after the kubelet settings, and
 * offerings the unavailable-offerings cache lists marked unavailable. Offerings without a price
 * are unavailable. Served from caches refreshed in the background; never calls EC2 per launch.
 */
export interface AwsInstanceTypes {
  forNodeClass(nodeClass: EC2NodeClass): Promise<InstanceType[]>;
}

/** On-demand and spot prices per hour, USD. */
export interface AwsPrices {
  onDemand(instanceType: string): number | undefined;
  spot(instanceType: string, zone: string): number | undefined;
}
