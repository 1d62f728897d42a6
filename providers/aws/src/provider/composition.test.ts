import { Labels } from '@nodewright/core/apis';
import type { ProviderContext } from '@nodewright/core/operator';
import { ControllerEnv, reconcileContext } from '@nodewright/core/testing';
import { describe, expect, it } from 'vitest';
import { type EC2NodeClass, ec2NodeClassSchema, exampleEC2NodeClass } from '../apis/index.js';
import { M5Large, M6gLarge } from '../instancetype/fixtures.js';
import type { InterruptionQueueApi } from '../interruption/sqs-source.js';
import type { PricingApi, SqsApi } from '../sdk/index.js';
import { createAwsProvider } from './create-provider.js';
import { EC2NodeClasses } from './nodeclass-reader.js';
import { parseAwsSettings } from './settings.js';
import { awsError, fakeEc2, fakeIam, fakeSqs, fakeSsm, RecordingFake } from './testing/fake-ec2.js';
import { nodeClaim } from './testing/fixtures.js';

/**
 * The whole provider as the plugin composes it (F's resolver, status controller, instance types
 * and prices with this launcher and cloud provider) over call-recording fakes: an EC2NodeClass
 * becomes Ready through ec2nodeclass.status, then a NodeClaim launches through CreateFleet.
 */
describe('aws provider composition', () => {
  it('resolves an EC2NodeClass to Ready and launches a NodeClaim with CreateFleet', async () => {
    const env = new ControllerEnv({ kinds: [EC2NodeClasses] });
    const ec2 = fakeEc2();
    const templates = new Set<string>();
    ec2
      .on('describeSubnets', () => ({
        Subnets: [
          {
            SubnetId: 'subnet-a',
            AvailabilityZone: 'us-west-2a',
            AvailabilityZoneId: 'usw2-az1',
            AvailableIpAddressCount: 200,
          },
          {
            SubnetId: 'subnet-b',
            AvailabilityZone: 'us-west-2b',
            AvailabilityZoneId: 'usw2-az2',
            AvailableIpAddressCount: 100,
          },
        ],
      }))
      .on('describeSecurityGroups', () => ({ SecurityGroups: [{ GroupId: 'sg-1', GroupName: 'nodes' }] }))
      .on('describeImages', () => ({
        Images: [
          {
            ImageId: 'ami-0abc',
            Name: 'custom-al2023',
            Architecture: 'x86_64',
            CreationDate: '2026-05-01T00:00:00.000Z',
            State: 'available',
          },
        ],
      }))
      .on('describeInstanceTypes', () => ({ InstanceTypes: [M5Large, M6gLarge] }))
      .on('describeInstanceTypeOfferings', () => ({
        InstanceTypeOfferings: ['us-west-2a', 'us-west-2b'].flatMap((Location) =>
          ['m5.large', 'm6g.large'].map((t) => ({
            InstanceType: t as never,
            Location,
            LocationType: 'availability-zone' as const,
          })),
        ),
      }))
      .on('describeSpotPriceHistory', () => ({ SpotPriceHistory: [] }))
      .on('describeLaunchTemplates', (input) => {
        const name = input.LaunchTemplateNames?.[0] ?? '';
        if (!templates.has(name)) throw awsError('InvalidLaunchTemplateName.NotFoundException');
        return { LaunchTemplates: [{ LaunchTemplateName: name, LaunchTemplateId: 'lt-1' }] };
      })
      .on('createLaunchTemplate', (input) => {
        templates.add(input.LaunchTemplateName ?? '');
        return { LaunchTemplate: { LaunchTemplateId: 'lt-1' } };
      })
      .on('describeInstances', () => ({ Reservations: [] }))
      .on('createFleet', (input) => {
        const o = input.LaunchTemplateConfigs?.[0]?.Overrides?.[0];
        return {
          Instances: [
            {
              InstanceIds: ['i-0aaaabbbbccccdddd'],
              InstanceType: o?.InstanceType,
              Lifecycle: 'on-demand',
              LaunchTemplateAndOverrides: { Overrides: { ...o } },
            },
          ],
        };
      });
    const pricing = new RecordingFake<PricingApi>();
    pricing.on('getProducts', () => ({ PriceList: [] }));
    const context: ProviderContext = env.providerContext('test-cluster');
    // spec.instanceProfile below: the status controller only checks that it exists.
    const iam = fakeIam().on('getInstanceProfile', (input) => ({
      InstanceProfile: {
        InstanceProfileName: input.InstanceProfileName,
        InstanceProfileId: 'AIPAMOCK',
        Arn: `arn:aws:iam::123456789012:instance-profile/${input.InstanceProfileName}`,
        Path: '/',
        CreateDate: new Date(0),
        Roles: [],
      },
    }));
    const provider = createAwsProvider(
      context,
      parseAwsSettings({
        region: 'us-west-2',
        clusterEndpoint: 'https://api.test-cluster.example.com',
        caBundle: 'Q0E=',
      }),
      {
        ec2: ec2.api,
        pricing: pricing.api,
        sqs: fakeSqs().api as SqsApi as InterruptionQueueApi,
        iam: iam.api,
        ssm: fakeSsm().api,
      },
    );
    const input = exampleEC2NodeClass();
    const nodeClass: EC2NodeClass = ec2NodeClassSchema.parse({
      ...input,
      spec: {
        ...input.spec,
        role: undefined,
        instanceProfile: 'nodes',
        amiFamily: 'AL2023',
        amiSelectorTerms: [{ id: 'ami-0abc' }],
      },
    });
    await env.create(EC2NodeClasses, nodeClass);
    const resolve = reconcileContext({ logger: env.logger });
    for (const controller of provider.controllers) await controller.reconcile({ name: 'default' }, resolve);
    const resolved = await env.cluster.get(EC2NodeClasses, { name: 'default' });
    expect(resolved?.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');

    const claim = await provider.cloudProvider.create(
      nodeClaim('web-1', [{ key: Labels.Arch, operator: 'In', values: ['amd64'] }]),
    );
    expect(claim.status?.providerID).toBe('aws:///us-west-2a/i-0aaaabbbbccccdddd');
    expect(claim.metadata.labels?.[Labels.InstanceType]).toBe('m5.large');
    expect(claim.status?.imageID).toBe('ami-0abc');
    const [fleet] = ec2.inputs('createFleet');
    expect(fleet?.LaunchTemplateConfigs?.[0]?.Overrides?.map((o) => o.SubnetId)).toEqual([
      'subnet-a',
      'subnet-b',
    ]);
    const [lt] = ec2.inputs('createLaunchTemplate');
    expect(lt?.LaunchTemplateData?.IamInstanceProfile).toEqual({ Name: 'nodes' });
    expect(iam.calls.map((c) => c.method)).toEqual(['getInstanceProfile']);
    await provider.close?.();
  });
});
