import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AwsMock, startAwsMock } from './aws-mock.js';

let mock: AwsMock;
let ssm: SSMClient;

beforeEach(async () => {
  mock = await startAwsMock({ cluster: 'c1', kubernetesVersion: '1.33' });
  ssm = new SSMClient({ ...mock.clientConfig, maxAttempts: 1 });
});

afterEach(async () => {
  ssm.destroy();
  await mock.close();
});

const imageNamed = (name: string) => mock.seed.images.find((i) => i.name === name)?.id;

describe('SSM mock with the real SDK (JSON 1.1, AmazonSSM.GetParameter)', () => {
  it("serves the public EKS AMI parameters, 'recommended' naming the newest release", async () => {
    const base = '/aws/service/eks/optimized-ami/1.33/amazon-linux-2023/x86_64/standard';
    const recommended = await ssm.send(new GetParameterCommand({ Name: `${base}/recommended/image_id` }));
    expect(recommended.Parameter).toMatchObject({
      Name: `${base}/recommended/image_id`,
      Type: 'String',
      DataType: 'aws:ec2:image',
      Value: imageNamed('amazon-eks-node-al2023-x86_64-standard-1.33-v20261101'),
    });
    expect(recommended.Parameter?.LastModifiedDate).toEqual(new Date('2026-11-01T07:58:03.000Z'));
    const pinned = await ssm.send(
      new GetParameterCommand({
        Name: `${base}/amazon-eks-node-al2023-x86_64-standard-1.33-v20261001/image_id`,
      }),
    );
    expect(pinned.Parameter?.Value).toBe(imageNamed('amazon-eks-node-al2023-x86_64-standard-1.33-v20261001'));
    const bottlerocket = await ssm.send(
      new GetParameterCommand({ Name: '/aws/service/bottlerocket/aws-k8s-1.33/arm64/latest/image_id' }),
    );
    expect(bottlerocket.Parameter?.Value).toBe(
      mock.seed.images.find((i) => i.name.startsWith('bottlerocket-aws-k8s-1.33-aarch64-v1.50.0'))?.id,
    );
  });

  it('answers ParameterNotFound for an unknown name', async () => {
    const error = await ssm.send(new GetParameterCommand({ Name: '/nope' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ParameterNotFound', $metadata: { httpStatusCode: 400 } });
  });
});
