import type { ProviderContext } from '@nodewright/core/operator';
import { ControllerEnv } from '@nodewright/core/testing';
import { describe, expect, it } from 'vitest';
import type { InterruptionQueueApi } from '../interruption/sqs-source.js';
import type { PricingApi, SqsApi } from '../sdk/index.js';
import { createAwsProvider } from './create-provider.js';
import { EC2NodeClasses } from './nodeclass-reader.js';
import { awsProviderPlugin } from './plugin.js';
import { parseAwsSettings } from './settings.js';
import { fakeEc2, fakeIam, fakeSqs, fakeSsm, RecordingFake } from './testing/fake-ec2.js';

function context(settings: Record<string, string>): ProviderContext {
  return new ControllerEnv({ kinds: [EC2NodeClasses] }).providerContext('test-cluster', settings);
}

const clients = () => ({
  ec2: fakeEc2(),
  pricing: new RecordingFake<PricingApi>(),
  sqs: fakeSqs(),
  iam: fakeIam(),
  ssm: fakeSsm(),
});

describe('awsProviderPlugin', () => {
  it('is named aws, contributes EC2NodeClass and documents its settings', () => {
    expect(awsProviderPlugin.name).toBe('aws');
    expect(awsProviderPlugin.kinds.map((k) => k.kind)).toEqual(['EC2NodeClass']);
    expect(Object.keys(awsProviderPlugin.settings)).toEqual(
      expect.arrayContaining([
        'region',
        'endpoint',
        'pricingRegion',
        'interruptionQueue',
        'accessKeyId',
        'secretAccessKey',
        'clusterEndpoint',
        'caBundle',
      ]),
    );
  });

  it('refuses unknown settings by name before building anything', async () => {
    await expect(
      awsProviderPlugin.create(context({ region: 'us-west-2', intteruptionQueue: 'q' })),
    ).rejects.toThrow(/unknown setting intteruptionQueue/);
  });

  it('wires the SQS interruption source only when a queue is configured', async () => {
    const ctx = context({});
    const without = createAwsProvider(ctx, parseAwsSettings({ region: 'us-west-2' }), {
      ...mapApis(clients()),
    });
    expect(without.cloudProvider.interruptions).toBeUndefined();
    expect(without.nodeClassTypes).toEqual([EC2NodeClasses]);
    expect(without.cloudProvider.name).toBe('aws');
    await without.close?.();

    const c = clients();
    c.sqs
      .on('getQueueUrl', () => ({ QueueUrl: 'https://sqs/q' }))
      .on('receiveMessage', () => ({ Messages: [] }));
    const withQueue = createAwsProvider(
      ctx,
      parseAwsSettings({ region: 'us-west-2', interruptionQueue: 'q' }),
      mapApis(c),
    );
    expect(await withQueue.cloudProvider.interruptions?.receive()).toEqual([]);
    expect(c.sqs.inputs('getQueueUrl')).toEqual([{ QueueName: 'q' }]);
    await withQueue.close?.();
  });

  it('builds real SDK clients from the settings without calling AWS', async () => {
    const instance = await awsProviderPlugin.create(
      context({
        region: 'us-west-2',
        endpoint: 'http://127.0.0.1:1',
        accessKeyId: 'AKID',
        secretAccessKey: 's',
      }),
    );
    expect(instance.cloudProvider.supportedNodeClasses()).toEqual([
      { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass' },
    ]);
    await instance.close?.();
  });
});

function mapApis(c: ReturnType<typeof clients>) {
  return {
    ec2: c.ec2.api,
    pricing: c.pricing.api,
    sqs: c.sqs.api as SqsApi as InterruptionQueueApi,
    iam: c.iam.api,
    ssm: c.ssm.api,
  };
}

describe('createAwsProvider controllers', () => {
  it('runs the ec2nodeclass.status and ec2nodeclass.termination controllers', () => {
    const instance = createAwsProvider(
      context({}),
      parseAwsSettings({ region: 'us-west-2' }),
      mapApis(clients()),
    );
    expect(instance.controllers.map((c) => c.name)).toEqual([
      'ec2nodeclass.status',
      'ec2nodeclass.termination',
    ]);
  });
});
