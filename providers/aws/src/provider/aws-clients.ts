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

/**
 * How long a call may go without an answer before the SDK gives up on its connection (and
 * retries per its strategy): a call EC2 never answers must not hold a launch, and the worker
 * running it, forever. Longer than SQS's 20 s long poll, which is silent by design.
 */
export const AwsRequestTimeoutMs = 60_000;
/** How long opening a connection may take. */
export const AwsConnectionTimeoutMs = 10_000;

/** Deadlines for every SDK call; see AwsRequestTimeoutMs. */
export interface AwsCallDeadlines {
  readonly requestTimeoutMs: number;
  readonly connectionTimeoutMs: number;
}

/** Real SDK clients for the settings: one endpoint for all five when set, static credentials when given. */
export async function awsClients(
  settings: AwsSettings,
  deadlines: AwsCallDeadlines = {
    requestTimeoutMs: AwsRequestTimeoutMs,
    connectionTimeoutMs: AwsConnectionTimeoutMs,
  },
): Promise<AwsClients> {
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
    requestHandler: {
      requestTimeout: deadlines.requestTimeoutMs,
      connectionTimeout: deadlines.connectionTimeoutMs,
      // Without it the handler only logs a warning at the deadline and keeps waiting.
      throwOnRequestTimeout: true,
    },
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
