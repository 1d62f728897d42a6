import type { DescribeImagesCommandInput, DescribeSubnetsCommandOutput } from '@aws-sdk/client-ec2';
import { FakeClock } from '@nodewright/core/clock';
import { describe, expect, it } from 'vitest';
import { fakeEc2, paged } from '../instancetype/fake-ec2.js';
import { awsError, fakeSsm } from '../provider/testing/fake-ec2.js';
import { NodeClassResolutionError, NodeClassResolver } from './resolver.js';
import { nodeClassFixture } from './testing.js';

const meta = { $metadata: {} };
const NOW = Date.parse('2026-12-02T12:00:00Z');

function world(overrides: Partial<Parameters<typeof fakeEc2>[0]> = {}) {
  const subnets = [
    {
      SubnetId: 'subnet-a',
      AvailabilityZone: 'us-west-2a',
      AvailabilityZoneId: 'usw2-az1',
      AvailableIpAddressCount: 100,
    },
    {
      SubnetId: 'subnet-b',
      AvailabilityZone: 'us-west-2b',
      AvailabilityZoneId: 'usw2-az2',
      AvailableIpAddressCount: 4000,
    },
    {
      SubnetId: 'subnet-c',
      AvailabilityZone: 'us-west-2c',
      AvailabilityZoneId: 'usw2-az3',
      AvailableIpAddressCount: 100,
    },
  ];
  const ec2 = fakeEc2({
    describeSubnets: paged(
      subnets,
      2,
      (Subnets, NextToken): DescribeSubnetsCommandOutput => ({ ...meta, Subnets, NextToken }),
    ),
    describeSecurityGroups: async () => ({
      ...meta,
      SecurityGroups: [
        { GroupId: 'sg-2', GroupName: 'nodes' },
        { GroupId: 'sg-1', GroupName: 'cluster' },
      ],
    }),
    describeImages: async (input: DescribeImagesCommandInput) => {
      const pattern = input.Filters?.find((f) => f.Name === 'name')?.Values?.[0] ?? '';
      if (pattern.includes('x86_64-standard')) {
        return {
          ...meta,
          Images: [
            {
              ImageId: 'ami-old',
              Name: 'amazon-eks-node-al2023-x86_64-standard-1.31-v20261001',
              Architecture: 'x86_64',
              CreationDate: '2026-10-01T00:00:00Z',
            },
            {
              ImageId: 'ami-new',
              Name: 'amazon-eks-node-al2023-x86_64-standard-1.31-v20261101',
              Architecture: 'x86_64',
              CreationDate: '2026-11-01T00:00:00Z',
            },
          ],
        };
      }
      if (pattern.includes('arm64-standard')) {
        return {
          ...meta,
          Images: [
            { ImageId: 'ami-arm', Name: 'arm', Architecture: 'arm64', CreationDate: '2026-11-01T00:00:00Z' },
          ],
        };
      }
      return { ...meta, Images: [] };
    },
    ...overrides,
  });
  const ssm = fakeSsm();
  const resolver = new NodeClassResolver({
    ec2,
    ssm: ssm.api,
    clock: new FakeClock(NOW),
    instanceProfiles: {
      reconcile: async (nodeClass) =>
        nodeClass.spec.role === 'missing-role'
          ? {
              name: 'prod_1',
              problem:
                'adding role missing-role to instance profile prod_1: role missing-role does not exist',
            }
          : { name: nodeClass.spec.instanceProfile ?? 'prod_1' },
    },
    kubernetesVersion: async () => '1.31',
  });
  return { ec2, ssm, resolver };
}

describe('NodeClassResolver', () => {
  it('resolves subnets (every page, most free IPs first), security groups (by id) and alias AMIs', async () => {
    const { ec2, resolver } = world();
    const facts = await resolver.resolve(nodeClassFixture());
    expect(facts.subnets).toEqual([
      { id: 'subnet-b', zone: 'us-west-2b', zoneID: 'usw2-az2' },
      { id: 'subnet-a', zone: 'us-west-2a', zoneID: 'usw2-az1' },
      { id: 'subnet-c', zone: 'us-west-2c', zoneID: 'usw2-az3' },
    ]);
    expect(facts.securityGroups).toEqual([
      { id: 'sg-1', name: 'cluster' },
      { id: 'sg-2', name: 'nodes' },
    ]);
    expect(facts.amis.map((a) => a.id)).toEqual(['ami-new', 'ami-arm']);
    expect(facts.instanceProfile).toBe('prod_1');
    expect(facts.instanceProfileDerivedFromRole).toBe('KarpenterNodeRole-my-cluster');
    expect(facts.problems).toEqual({});
    const subnetCalls = ec2.calls.filter((c) => c.method === 'describeSubnets').map((c) => c.input);
    expect(subnetCalls).toEqual([
      { Filters: [{ Name: 'tag:karpenter.sh/discovery', Values: ['my-cluster'] }] },
      { Filters: [{ Name: 'tag:karpenter.sh/discovery', Values: ['my-cluster'] }], NextToken: '2' },
    ]);
    expect(ec2.calls.filter((c) => c.method === 'describeImages')).toHaveLength(5);
  });

  it('says what matched nothing', async () => {
    const { resolver } = world({
      describeSubnets: async () => ({ ...meta, Subnets: [] }),
      describeSecurityGroups: async () => ({ ...meta, SecurityGroups: [] }),
      describeImages: async () => ({
        ...meta,
        Images: [
          {
            ImageId: 'ami-dep',
            Architecture: 'x86_64',
            Name: 'dep',
            DeprecationTime: '2026-01-01T00:00:00Z',
          },
        ],
      }),
    });
    const facts = await resolver.resolve(
      nodeClassFixture({
        subnetSelectorTerms: [{ id: 'subnet-gone' }],
        securityGroupSelectorTerms: [{ name: 'nodes' }],
        amiSelectorTerms: [{ name: 'my-ami-*' }],
        amiFamily: 'AL2023',
      }),
    );
    expect(facts.problems).toEqual({
      subnets: 'no subnets matched subnetSelectorTerms (id subnet-gone)',
      securityGroups: 'no security groups matched securityGroupSelectorTerms (name nodes)',
      amis: 'no AMIs matched amiSelectorTerms (name my-ami-*); 1 deprecated image(s) skipped; pin one by id to use it',
    });
  });

  it('uses spec.instanceProfile as is', async () => {
    const { resolver } = world();
    const facts = await resolver.resolve(
      nodeClassFixture({ role: undefined, instanceProfile: 'my-profile' }),
    );
    expect(facts.instanceProfile).toBe('my-profile');
    expect(facts.instanceProfileDerivedFromRole).toBeUndefined();
  });

  it("reports the instance profile's problem next to what it resolved", async () => {
    const { resolver } = world();
    const facts = await resolver.resolve(nodeClassFixture({ role: 'missing-role' }));
    expect(facts.instanceProfile).toBe('prod_1');
    expect(facts.problems).toEqual({
      instanceProfile:
        'adding role missing-role to instance profile prod_1: role missing-role does not exist',
    });
  });

  it('reads ssmParameter terms with GetParameter and uses the image they name, even deprecated', async () => {
    const { resolver, ssm, ec2 } = world({
      describeImages: async (input: DescribeImagesCommandInput) => {
        const ids = input.Filters?.find((f) => f.Name === 'image-id')?.Values ?? [];
        return {
          ...meta,
          Images: ids.includes('ami-0ssm')
            ? [
                {
                  ImageId: 'ami-0ssm',
                  Name: 'from-ssm',
                  Architecture: 'x86_64',
                  DeprecationTime: '2026-01-01T00:00:00Z',
                },
              ]
            : [],
        };
      },
    });
    ssm.on('getParameter', (input) => {
      if (input.Name === '/gone') throw awsError('ParameterNotFound');
      if (input.Name === '/text') return { Parameter: { Name: input.Name, Value: 'hello' } };
      return { Parameter: { Name: input.Name, Value: 'ami-0ssm' } };
    });
    const facts = await resolver.resolve(
      nodeClassFixture({
        amiFamily: 'AL2023',
        amiSelectorTerms: [{ ssmParameter: '/aws/service/x/image_id' }],
      }),
    );
    expect(facts.amis.map((a) => [a.id, a.deprecated])).toEqual([['ami-0ssm', true]]);
    expect(ssm.inputs('getParameter')).toEqual([{ Name: '/aws/service/x/image_id' }]);
    expect(ec2.calls.find((c) => c.method === 'describeImages')?.input).toEqual({
      Filters: [
        { Name: 'image-id', Values: ['ami-0ssm'] },
        { Name: 'state', Values: ['available'] },
      ],
      IncludeDeprecated: true,
    });

    const missing = await resolver.resolve(
      nodeClassFixture({
        amiFamily: 'AL2023',
        amiSelectorTerms: [{ ssmParameter: '/gone' }, { ssmParameter: '/text' }],
      }),
    );
    expect(missing.problems.amis).toBe(
      'no AMIs matched amiSelectorTerms; ssmParameter /gone does not exist; ssmParameter /text holds "hello", not an AMI id',
    );
  });

  it('fails naming the NodeClass and the call when EC2 fails', async () => {
    const { resolver } = world({
      describeSubnets: async () => {
        throw new Error('UnauthorizedOperation');
      },
    });
    const error = await resolver.resolve(nodeClassFixture()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NodeClassResolutionError);
    expect((error as Error).message).toBe(
      'EC2NodeClass default: DescribeSubnets for tags {"karpenter.sh/discovery":"my-cluster"} failed: UnauthorizedOperation',
    );
  });
});
