import type { GetParameterCommandInput, GetParameterCommandOutput } from '@aws-sdk/client-ssm';

/**
 * The SSM call the provider makes: reading the public parameters that name the current
 * EKS-optimized AMIs (`ssmParameter` AMI selector terms and aliases). The aggregated `SSM` client
 * satisfies it structurally.
 */
export interface SsmApi {
  getParameter(input: GetParameterCommandInput): Promise<GetParameterCommandOutput>;
}
