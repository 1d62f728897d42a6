/** Provider settings keys and what each means (shown by `nodewright controller --help`). */
export const AwsSettingKeys = {
  region: 'AWS region of the cluster (required), e.g. us-west-2.',
  endpoint: 'One URL for EC2, Pricing, SQS, IAM and SSM (a mock or a proxy); unset = the AWS endpoints.',
  pricingRegion: 'Region of the Pricing API; default us-east-1 (ap-south-1 for ap-* regions).',
  interruptionQueue:
    'Name of the SQS queue EventBridge feeds interruption events into; unset = no interruption handling.',
  accessKeyId: 'Static access key id (for mocks); unset = the SDK default credential chain.',
  secretAccessKey: 'Static secret access key, with accessKeyId.',
  sessionToken: 'Static session token, with accessKeyId (optional).',
  clusterEndpoint: 'The API server URL nodes join (user data); required except for Custom AMIs.',
  caBundle: 'Base64 PEM of the cluster CA (user data and the EC2NodeClass hash).',
  kubernetesVersion: 'Kubernetes minor version (1.33) for resolving AMI aliases to EKS images.',
} as const;

export type AwsSettingKey = keyof typeof AwsSettingKeys;

/** The provider's settings, parsed. */
export interface AwsSettings {
  readonly region: string;
  readonly endpoint?: string;
  readonly pricingRegion: string;
  readonly interruptionQueue?: string;
  readonly credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  readonly clusterEndpoint?: string;
  readonly caBundle?: string;
  readonly kubernetesVersion?: string;
}

/** The Pricing API is served from two regions only; the nearer one is used by default. */
export function defaultPricingRegion(region: string): string {
  return region.startsWith('ap-') ? 'ap-south-1' : 'us-east-1';
}

/**
 * Parses `--set key=value` provider settings. @throws Error naming each unknown key, a missing
 * region, a malformed endpoint, or half of the static credentials.
 */
export function parseAwsSettings(raw: Readonly<Record<string, string>>): AwsSettings {
  const unknown = Object.keys(raw).filter((k) => !(k in AwsSettingKeys));
  if (unknown.length > 0) {
    throw new Error(
      `aws provider: unknown setting${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${Object.keys(AwsSettingKeys).join(', ')})`,
    );
  }
  const get = (k: AwsSettingKey): string | undefined => {
    const v = raw[k]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const region = get('region');
  if (region === undefined)
    throw new Error('aws provider: setting region is required (e.g. --set region=us-west-2)');
  const endpoint = get('endpoint');
  if (endpoint !== undefined && !URL.canParse(endpoint)) {
    throw new Error(`aws provider: setting endpoint ${JSON.stringify(endpoint)} is not a URL`);
  }
  const clusterEndpoint = get('clusterEndpoint');
  if (clusterEndpoint !== undefined && !URL.canParse(clusterEndpoint)) {
    throw new Error(`aws provider: setting clusterEndpoint ${JSON.stringify(clusterEndpoint)} is not a URL`);
  }
  const accessKeyId = get('accessKeyId');
  const secretAccessKey = get('secretAccessKey');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new Error(
      'aws provider: settings accessKeyId and secretAccessKey go together; set both or neither',
    );
  }
  const sessionToken = get('sessionToken');
  const optional = <K extends string>(key: K, value: string | undefined) =>
    (value === undefined ? {} : { [key]: value }) as Partial<Record<K, string>>;
  return {
    region,
    pricingRegion: get('pricingRegion') ?? defaultPricingRegion(region),
    ...optional('endpoint', endpoint),
    ...optional('interruptionQueue', get('interruptionQueue')),
    ...optional('clusterEndpoint', clusterEndpoint),
    ...optional('caBundle', get('caBundle')),
    ...optional('kubernetesVersion', get('kubernetesVersion')),
    ...(accessKeyId !== undefined && secretAccessKey !== undefined
      ? {
          credentials: {
            accessKeyId,
            secretAccessKey,
            ...(sessionToken !== undefined ? { sessionToken } : {}),
          },
        }
      : {}),
  };
}
