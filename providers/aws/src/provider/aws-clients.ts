import type { InterruptionQueueApi } from '../interruption/sqs-source.js';
import type { Ec2Api, IamApi, PricingApi, SsmApi } from '../sdk/index.js';
import type { AwsSettings } from './settings.js';

/** The SDK clients the provider talks through, built from the settings. */
export interface AwsClients {
  readonly ec2: Ec2Api;
  readonly pricing: PricingApi;
  readonly sqs: InterruptionQueueApi;
  readonly iam: IamApi;
  readonly ssm: SsmApi;
  destroy(): void;
}

/** Real SDK clients for the settings: one endpoint for all five when set, static credentials when given. */
export async function awsClients(settings: AwsSettings): Promise<AwsClients> {
  // The SDK is imported when clients are built, so importing this package (the CLI reads its
  // kinds and catalogs for `validate` and `schedule`) never loads it.
  const [{ EC2 }, { IAM }, { Pricing }, { SQS }, { SSM }] = await Promise.all([
    import('@aws-sdk/client-ec2'),
    import('@aws-sdk/client-iam'),
    import('@aws-sdk/client-pricing'),
    import('@aws-sdk/client-sqs'),
    import('@aws-sdk/client-ssm'),
  ]);
  const common = {
    ...(settings.endpoint !== undefined ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials !== undefined ? { credentials: settings.credentials } : {}),
  };
  const ec2 = new EC2({ ...common, region: settings.region });
  const pricing = new Pricing({ ...common, region: settings.pricingRegion });
  const sqs = new SQS({ ...common, region: settings.region });
  // IAM is global; the SDK resolves its one endpoint from any commercial region.
  const iam = new IAM({ ...common, region: settings.region });
  const ssm = new SSM({ ...common, region: settings.region });
  return {
    ec2,
    pricing,
    sqs,
    iam,
    ssm,
    destroy: () => {
      ec2.destroy();
      pricing.destroy();
      sqs.destroy();
      iam.destroy();
      ssm.destroy();
    },
  };
}
