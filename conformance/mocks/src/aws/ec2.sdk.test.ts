import {
  type _InstanceType,
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  CreateTagsCommand,
  DeleteLaunchTemplateCommand,
  DescribeImagesCommand,
  DescribeInstancesCommand,
  DescribeInstanceTypeOfferingsCommand,
  DescribeInstanceTypesCommand,
  DescribeLaunchTemplatesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSpotPriceHistoryCommand,
  DescribeSubnetsCommand,
  EC2,
  EC2Client,
  paginateDescribeInstanceTypes,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { FakeClock, ManualTimers } from '@nodewright/core/clock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AwsMock, startAwsMock } from './aws-mock.js';

const START = Date.parse('2026-12-01T12:00:00Z');
const discovery = [{ Name: 'tag:karpenter.sh/discovery', Values: ['c1'] }];

let mock: AwsMock;
let clock: FakeClock;
let timers: ManualTimers;
let ec2: EC2Client;

beforeEach(async () => {
  clock = new FakeClock(START);
  timers = new ManualTimers(clock);
  mock = await startAwsMock({ cluster: 'c1', clock, timers });
  // The profile the launch templates below name; EC2 refuses launches with an unknown one.
  mock.iam.createInstanceProfile('c1-node', '/', {}, START);
  ec2 = new EC2Client({ ...mock.clientConfig, maxAttempts: 1 });
});

afterEach(async () => {
  ec2.destroy();
  await mock.close();
});

async function launchTemplate(
  name = 'nodewright/c1/default',
  imageName = 'amazon-eks-node-al2023-x86_64-standard-1.34-v20261101',
) {
  const image = mock.seed.images.find((i) => i.name === imageName)!;
  const groups = mock.seed.securityGroups
    .filter((g) => g.tags['karpenter.sh/discovery'] === 'c1')
    .map((g) => g.id);
  const out = await ec2.send(
    new CreateLaunchTemplateCommand({
      LaunchTemplateName: name,
      LaunchTemplateData: {
        ImageId: image.id,
        UserData: Buffer.from('--node-labels=karpenter.sh/nodepool=default,team=a ').toString('base64'),
        SecurityGroupIds: groups,
        IamInstanceProfile: { Name: 'c1-node' },
        BlockDeviceMappings: [
          { DeviceName: '/dev/xvda', Ebs: { VolumeSize: 80, VolumeType: 'gp3', Encrypted: true } },
        ],
        MetadataOptions: { HttpTokens: 'required', HttpPutResponseHopLimit: 1, HttpEndpoint: 'enabled' },
        TagSpecifications: [
          { ResourceType: 'instance', Tags: [{ Key: 'karpenter.sh/nodepool', Value: 'default' }] },
        ],
      },
      TagSpecifications: [
        { ResourceType: 'launch-template', Tags: [{ Key: 'karpenter.k8s.aws/cluster', Value: 'c1' }] },
      ],
    }),
  );
  return out.LaunchTemplate!;
}

function privateSubnets() {
  return mock.seed.subnets.filter((s) => s.tags['karpenter.sh/discovery'] === 'c1');
}

describe('EC2 mock with the real SDK', () => {
  it('describes discovery-tagged subnets and security groups', async () => {
    const subnets = await ec2.send(new DescribeSubnetsCommand({ Filters: discovery }));
    expect(subnets.Subnets?.map((s) => s.AvailabilityZone)).toEqual([
      'us-east-1a',
      'us-east-1b',
      'us-east-1c',
    ]);
    expect(subnets.Subnets?.[0]).toMatchObject({
      AvailableIpAddressCount: 8187,
      AvailabilityZoneId: 'use1-az1',
      State: 'available',
    });
    expect(subnets.Subnets?.[0]?.Tags).toContainEqual({ Key: 'karpenter.sh/discovery', Value: 'c1' });
    const all = await ec2.send(new DescribeSubnetsCommand({}));
    expect(all.Subnets).toHaveLength(4);
    const byKey = await ec2.send(
      new DescribeSubnetsCommand({ Filters: [{ Name: 'tag-key', Values: ['kubernetes.io/role/elb'] }] }),
    );
    expect(byKey.Subnets).toHaveLength(1);
    const groups = await ec2.send(new DescribeSecurityGroupsCommand({ Filters: discovery }));
    expect(groups.SecurityGroups?.map((g) => g.GroupName)).toEqual([
      'eks-cluster-sg-c1-1234567890',
      'c1-node',
    ]);
    const byName = await ec2.send(
      new DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-name', Values: ['eks-cluster-*'] }] }),
    );
    expect(byName.SecurityGroups).toHaveLength(1);
  });

  it('describes EKS images by owner and name wildcard, newest release included', async () => {
    const out = await ec2.send(
      new DescribeImagesCommand({
        Owners: ['amazon'],
        Filters: [
          { Name: 'name', Values: ['amazon-eks-node-al2023-*-standard-1.34-*'] },
          { Name: 'architecture', Values: ['arm64'] },
        ],
      }),
    );
    expect(out.Images?.map((i) => i.Name).sort()).toEqual([
      'amazon-eks-node-al2023-arm64-standard-1.34-v20250101',
      'amazon-eks-node-al2023-arm64-standard-1.34-v20261001',
      'amazon-eks-node-al2023-arm64-standard-1.34-v20261101',
    ]);
    expect(out.Images?.[0]).toMatchObject({
      Architecture: 'arm64',
      ImageOwnerAlias: 'amazon',
      State: 'available',
    });
    expect(out.Images?.[0]?.CreationDate).toMatch(/^(2026-1[01]-01|2025-01-02)T/);
    const own = await ec2.send(new DescribeImagesCommand({ Owners: ['self'], Filters: discovery }));
    expect(own.Images?.map((i) => i.Name)).toEqual(['c1-custom-al2023-1.34']);
    const byId = await ec2.send(new DescribeImagesCommand({ ImageIds: [own.Images![0]!.ImageId!] }));
    expect(byId.Images).toHaveLength(1);
  });

  it('pages DescribeInstanceTypes (100 per page) and filters by architecture', async () => {
    const names: string[] = [];
    for await (const page of paginateDescribeInstanceTypes(
      { client: ec2 },
      {
        Filters: [
          { Name: 'supported-virtualization-type', Values: ['hvm'] },
          { Name: 'processor-info.supported-architecture', Values: ['x86_64', 'arm64'] },
        ],
      },
    )) {
      expect(page.InstanceTypes!.length).toBeLessThanOrEqual(100);
      names.push(...page.InstanceTypes!.map((t) => t.InstanceType!));
    }
    expect(names).toHaveLength(mock.seed.instanceTypes.length);
    expect(mock.faults.calls('DescribeInstanceTypes')).toBe(2);
    const arm = await ec2.send(
      new DescribeInstanceTypesCommand({
        Filters: [{ Name: 'processor-info.supported-architecture', Values: ['arm64'] }],
      }),
    );
    expect(arm.InstanceTypes!.every((t) => t.ProcessorInfo?.SupportedArchitectures?.[0] === 'arm64')).toBe(
      true,
    );
    const [g4dn] = (await ec2.send(new DescribeInstanceTypesCommand({ InstanceTypes: ['g4dn.xlarge'] })))
      .InstanceTypes!;
    expect(g4dn).toMatchObject({
      InstanceType: 'g4dn.xlarge',
      Hypervisor: 'nitro',
      VCpuInfo: { DefaultVCpus: 4 },
      MemoryInfo: { SizeInMiB: 16384 },
      NetworkInfo: {
        MaximumNetworkInterfaces: 3,
        Ipv4AddressesPerInterface: 10,
        NetworkPerformance: 'Up to 25 Gigabit',
      },
      GpuInfo: { Gpus: [{ Name: 'T4', Manufacturer: 'NVIDIA', Count: 1, MemoryInfo: { SizeInMiB: 16384 } }] },
      InstanceStorageInfo: { TotalSizeInGB: 125, NvmeSupport: 'required' },
      ProcessorInfo: { Manufacturer: 'Intel', SupportedArchitectures: ['x86_64'] },
    });
  });

  it('lists offerings per zone and the spot price in effect', async () => {
    const offerings = await ec2.send(
      new DescribeInstanceTypeOfferingsCommand({
        LocationType: 'availability-zone',
        Filters: [{ Name: 'instance-type', Values: ['g4dn.xlarge', 'm5.large'] }],
      }),
    );
    expect(offerings.InstanceTypeOfferings?.map((o) => `${o.InstanceType}@${o.Location}`).sort()).toEqual([
      'g4dn.xlarge@us-east-1a',
      'g4dn.xlarge@us-east-1b',
      'm5.large@us-east-1a',
      'm5.large@us-east-1b',
      'm5.large@us-east-1c',
    ]);
    const spot = await ec2.send(
      new DescribeSpotPriceHistoryCommand({
        InstanceTypes: ['m5.large'],
        ProductDescriptions: ['Linux/UNIX'],
        StartTime: new Date(START),
      }),
    );
    expect(spot.SpotPriceHistory).toHaveLength(3);
    for (const p of spot.SpotPriceHistory!) {
      expect(p.Timestamp?.getTime()).toBe(START - 3_600_000);
      expect(Number(p.SpotPrice)).toBe(mock.ec2.currentSpotPrice('m5.large', p.AvailabilityZone!));
    }
    const history = await ec2.send(
      new DescribeSpotPriceHistoryCommand({
        InstanceTypes: ['m5.large'],
        ProductDescriptions: ['Linux/UNIX'],
        StartTime: new Date(START - 7 * 3_600_000),
      }),
    );
    // The price in effect at StartTime (set 48 h ago) and the two changes since, per zone.
    expect(history.SpotPriceHistory).toHaveLength(9);
    expect(history.SpotPriceHistory?.at(-1)?.Timestamp?.getTime()).toBe(START - 48 * 3_600_000);
  });

  it('creates, finds, refuses duplicate and deletes launch templates', async () => {
    const lt = await launchTemplate();
    expect(lt).toMatchObject({ LaunchTemplateName: 'nodewright/c1/default', DefaultVersionNumber: 1 });
    expect(lt.LaunchTemplateId).toMatch(/^lt-0[0-9a-f]{16}$/);
    await expect(launchTemplate()).rejects.toMatchObject({
      name: 'InvalidLaunchTemplateName.AlreadyExistsException',
      $metadata: { httpStatusCode: 400 },
    });
    const byName = await ec2.send(
      new DescribeLaunchTemplatesCommand({ LaunchTemplateNames: ['nodewright/c1/default'] }),
    );
    expect(byName.LaunchTemplates?.[0]?.Tags).toEqual([{ Key: 'karpenter.k8s.aws/cluster', Value: 'c1' }]);
    const byTag = await ec2.send(
      new DescribeLaunchTemplatesCommand({
        Filters: [{ Name: 'tag:karpenter.k8s.aws/cluster', Values: ['c1'] }],
      }),
    );
    expect(byTag.LaunchTemplates).toHaveLength(1);
    await ec2.send(new DeleteLaunchTemplateCommand({ LaunchTemplateId: lt.LaunchTemplateId }));
    await expect(
      ec2.send(new DescribeLaunchTemplatesCommand({ LaunchTemplateNames: ['nodewright/c1/default'] })),
    ).rejects.toMatchObject({ name: 'InvalidLaunchTemplateName.NotFoundException' });
    await expect(
      ec2.send(new DeleteLaunchTemplateCommand({ LaunchTemplateName: 'nope' })),
    ).rejects.toMatchObject({
      name: 'InvalidLaunchTemplateName.NotFoundException',
    });
  });

  it('launches an instant spot fleet on the cheapest pool and describes the instances', async () => {
    const lt = await launchTemplate();
    const subnets = privateSubnets();
    const types: _InstanceType[] = ['m5.large', 'm6i.large', 'c6i.xlarge'];
    const fleet = await ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 2, DefaultTargetCapacityType: 'spot' },
        SpotOptions: { AllocationStrategy: 'price-capacity-optimized' },
        LaunchTemplateConfigs: [
          {
            LaunchTemplateSpecification: { LaunchTemplateName: lt.LaunchTemplateName, Version: '$Latest' },
            Overrides: types.flatMap((t) =>
              subnets.map((s) => ({ InstanceType: t, SubnetId: s.id, AvailabilityZone: s.zone })),
            ),
          },
        ],
        TagSpecifications: [
          { ResourceType: 'instance', Tags: [{ Key: 'karpenter.sh/nodeclaim', Value: 'default-abc' }] },
          { ResourceType: 'fleet', Tags: [{ Key: 'karpenter.sh/nodepool', Value: 'default' }] },
        ],
      }),
    );
    expect(fleet.FleetId).toMatch(/^fleet-[0-9a-f]{8}-/);
    expect(fleet.Errors ?? []).toEqual([]);
    const [launched] = fleet.Instances!;
    const cheapest = types
      .flatMap((t) => subnets.map((s) => ({ t, zone: s.zone, price: mock.ec2.currentSpotPrice(t, s.zone)! })))
      .sort((a, b) => a.price - b.price)[0]!;
    expect(launched).toMatchObject({ Lifecycle: 'spot', InstanceType: cheapest.t });
    expect(launched?.LaunchTemplateAndOverrides?.Overrides?.AvailabilityZone).toBe(cheapest.zone);
    expect(launched?.InstanceIds).toHaveLength(2);

    const described = await ec2.send(new DescribeInstancesCommand({ InstanceIds: launched!.InstanceIds }));
    const [instance] = described.Reservations![0]!.Instances!;
    expect(instance).toMatchObject({
      InstanceType: cheapest.t,
      State: { Code: 0, Name: 'pending' },
      Placement: { AvailabilityZone: cheapest.zone },
      InstanceLifecycle: 'spot',
      Architecture: 'x86_64',
      ImageId: mock.seed.images.find(
        (i) => i.name === 'amazon-eks-node-al2023-x86_64-standard-1.34-v20261101',
      )!.id,
      IamInstanceProfile: { Arn: 'arn:aws:iam::123456789012:instance-profile/c1-node' },
    });
    expect(instance?.PrivateDnsName).toMatch(/^ip-10-0-\d+-\d+\.ec2\.internal$/);
    expect(instance?.PrivateDnsName).toBe(
      `ip-${instance?.PrivateIpAddress?.replaceAll('.', '-')}.ec2.internal`,
    );
    expect(instance?.SpotInstanceRequestId).toMatch(/^sir-/);
    expect(instance?.LaunchTime?.getTime()).toBe(START);
    expect(instance?.SecurityGroups).toHaveLength(2);
    expect(instance?.Tags).toEqual(
      expect.arrayContaining([
        { Key: 'karpenter.sh/nodepool', Value: 'default' },
        { Key: 'karpenter.sh/nodeclaim', Value: 'default-abc' },
      ]),
    );
    const subnet = (await ec2.send(new DescribeSubnetsCommand({ SubnetIds: [instance!.SubnetId!] })))
      .Subnets![0]!;
    expect(subnet.AvailableIpAddressCount).toBe(8185);

    await timers.advance(500);
    const running = await ec2.send(
      new DescribeInstancesCommand({
        Filters: [
          { Name: 'instance-state-name', Values: ['running'] },
          { Name: 'tag:karpenter.sh/nodepool', Values: ['default'] },
        ],
      }),
    );
    expect(running.Reservations?.flatMap((r) => r.Instances ?? [])).toHaveLength(2);
  });

  it('reports insufficient capacity in errorSet with a 200 and falls back to the next pool', async () => {
    const lt = await launchTemplate();
    const [a] = privateSubnets();
    mock.faults.insufficientCapacity({ capacityType: 'on-demand', instanceType: 'm5.large', zone: a!.zone });
    const fleet = await ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
        OnDemandOptions: { AllocationStrategy: 'lowest-price' },
        LaunchTemplateConfigs: [
          {
            LaunchTemplateSpecification: { LaunchTemplateId: lt.LaunchTemplateId, Version: '$Latest' },
            Overrides: [
              { InstanceType: 'm5.large', SubnetId: a!.id, Priority: 0 },
              { InstanceType: 'm5.xlarge', SubnetId: a!.id, Priority: 1 },
            ],
          },
        ],
      }),
    );
    expect(fleet.Errors).toEqual([
      expect.objectContaining({
        ErrorCode: 'InsufficientInstanceCapacity',
        Lifecycle: 'on-demand',
        LaunchTemplateAndOverrides: expect.objectContaining({
          Overrides: expect.objectContaining({
            InstanceType: 'm5.large',
            AvailabilityZone: a!.zone,
            SubnetId: a!.id,
          }),
        }),
      }),
    ]);
    expect(fleet.Instances?.map((i) => [i.InstanceType, i.Lifecycle, i.InstanceIds?.length])).toEqual([
      ['m5.xlarge', 'on-demand', 1],
    ]);

    mock.faults.insufficientCapacity({ capacityType: 'on-demand', instanceType: 'm5.xlarge', zone: a!.zone });
    const empty = await ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
        LaunchTemplateConfigs: [
          {
            LaunchTemplateSpecification: { LaunchTemplateId: lt.LaunchTemplateId, Version: '$Latest' },
            Overrides: [
              { InstanceType: 'm5.large', SubnetId: a!.id },
              { InstanceType: 'm5.xlarge', SubnetId: a!.id },
              { InstanceType: 'g4dn.xlarge', SubnetId: privateSubnets()[2]!.id },
            ],
          },
        ],
      }),
    );
    expect(empty.Instances ?? []).toEqual([]);
    expect(empty.Errors?.map((e) => e.ErrorCode).sort()).toEqual([
      'InsufficientInstanceCapacity',
      'InsufficientInstanceCapacity',
      'Unsupported',
    ]);
  });

  it('reports a missing launch template and an AMI of the wrong architecture per override', async () => {
    const lt = await launchTemplate();
    const [a] = privateSubnets();
    const missing = await ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
        LaunchTemplateConfigs: [
          {
            LaunchTemplateSpecification: { LaunchTemplateName: 'gone', Version: '$Latest' },
            Overrides: [{ InstanceType: 'm5.large', SubnetId: a!.id }],
          },
          {
            LaunchTemplateSpecification: { LaunchTemplateName: lt.LaunchTemplateName, Version: '$Latest' },
            Overrides: [{ InstanceType: 'm6g.large', SubnetId: a!.id }],
          },
        ],
      }),
    );
    expect(missing.Errors?.map((e) => e.ErrorCode).sort()).toEqual([
      'InvalidLaunchTemplateName.NotFoundException',
      'InvalidParameterValue',
    ]);
    expect(missing.Instances ?? []).toEqual([]);
  });

  it('refuses to launch with an instance profile IAM does not know', async () => {
    const lt = await launchTemplate();
    const [a] = privateSubnets();
    mock.iam.instanceProfiles.delete('c1-node');
    const out = await ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
        LaunchTemplateConfigs: [
          {
            LaunchTemplateSpecification: { LaunchTemplateName: lt.LaunchTemplateName, Version: '$Latest' },
            Overrides: [{ InstanceType: 'm5.large', SubnetId: a!.id }],
          },
        ],
      }),
    );
    expect(out.Errors?.map((e) => [e.ErrorCode, e.ErrorMessage])).toEqual([
      [
        'InvalidParameterValue',
        'Value (c1-node) for parameter iamInstanceProfile.name is invalid. Invalid IAM Instance Profile name',
      ],
    ]);
    expect(out.Instances ?? []).toEqual([]);
  });

  it('terminates through shutting-down to terminated, still listed for a while, then gone', async () => {
    const lt = await launchTemplate();
    const fleet = await ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'on-demand' },
        LaunchTemplateConfigs: [
          {
            LaunchTemplateSpecification: { LaunchTemplateName: lt.LaunchTemplateName, Version: '$Latest' },
            Overrides: [{ InstanceType: 't3.medium', SubnetId: privateSubnets()[1]!.id }],
          },
        ],
      }),
    );
    const id = fleet.Instances![0]!.InstanceIds![0]!;
    const subnetId = privateSubnets()[1]!.id;
    expect(mock.ec2.subnets.get(subnetId)?.availableIps).toBe(8186);
    await timers.advance(500);
    const out = await ec2.send(new TerminateInstancesCommand({ InstanceIds: [id] }));
    expect(out.TerminatingInstances).toEqual([
      {
        InstanceId: id,
        CurrentState: { Code: 32, Name: 'shutting-down' },
        PreviousState: { Code: 16, Name: 'running' },
      },
    ]);
    await timers.advance(1000);
    const after = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
    expect(after.Reservations![0]!.Instances![0]!.State).toEqual({ Code: 48, Name: 'terminated' });
    expect(mock.ec2.subnets.get(subnetId)?.availableIps).toBe(8187);
    await timers.advance(60 * 60_000);
    await expect(ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }))).rejects.toMatchObject({
      name: 'InvalidInstanceID.NotFound',
    });
  });

  it('tags instances, filters by tag-key and pages DescribeInstances', async () => {
    const lt = await launchTemplate();
    const fleet = await ec2.send(
      new CreateFleetCommand({
        Type: 'instant',
        TargetCapacitySpecification: { TotalTargetCapacity: 7, DefaultTargetCapacityType: 'on-demand' },
        LaunchTemplateConfigs: [
          {
            LaunchTemplateSpecification: { LaunchTemplateName: lt.LaunchTemplateName, Version: '$Latest' },
            Overrides: [
              {
                InstanceType: 'c6g.large',
                SubnetId: privateSubnets()[0]!.id,
                ImageId: mock.seed.images.find((i) => i.architecture === 'arm64')!.id,
              },
            ],
          },
        ],
      }),
    );
    const ids = fleet.Instances![0]!.InstanceIds!;
    expect(ids).toHaveLength(7);
    await ec2.send(new CreateTagsCommand({ Resources: [ids[0]!], Tags: [{ Key: 'Name', Value: 'first' }] }));
    const named = await ec2.send(
      new DescribeInstancesCommand({ Filters: [{ Name: 'tag-key', Values: ['Name'] }] }),
    );
    expect(named.Reservations?.flatMap((r) => r.Instances!.map((i) => i.InstanceId))).toEqual([ids[0]]);
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await ec2.send(new DescribeInstancesCommand({ MaxResults: 5, NextToken: token }));
      seen.push(...page.Reservations!.flatMap((r) => r.Instances!.map((i) => i.InstanceId!)));
      token = page.NextToken;
    } while (token);
    expect(seen).toEqual(ids);
    await expect(
      ec2.send(
        new CreateTagsCommand({ Resources: ['i-0deadbeefdeadbeef'], Tags: [{ Key: 'a', Value: 'b' }] }),
      ),
    ).rejects.toMatchObject({
      name: 'InvalidInstanceID.NotFound',
    });
  });

  it('answers unknown instance ids and bad filters with typed errors', async () => {
    await expect(
      ec2.send(new DescribeInstancesCommand({ InstanceIds: ['i-0123456789abcdef0'] })),
    ).rejects.toMatchObject({
      name: 'InvalidInstanceID.NotFound',
      message: "The instance ID 'i-0123456789abcdef0' does not exist",
      $metadata: { httpStatusCode: 400 },
    });
    await expect(
      ec2.send(new DescribeSubnetsCommand({ Filters: [{ Name: 'colour', Values: ['x'] }] })),
    ).rejects.toMatchObject({
      name: 'InvalidParameterValue',
    });
  });

  it('throttles with RequestLimitExceeded, which the SDK retries', async () => {
    mock.faults.throttleNext({ service: 'ec2', action: 'DescribeSubnets' }, 1);
    await expect(ec2.send(new DescribeSubnetsCommand({}))).rejects.toMatchObject({
      name: 'RequestLimitExceeded',
      $metadata: { httpStatusCode: 503 },
    });
    mock.faults.throttleNext({ service: 'ec2', action: 'DescribeSubnets' }, 2);
    const retrying = new EC2({ ...mock.clientConfig, maxAttempts: 3, retryStrategy: undefined });
    const out = await retrying.describeSubnets({});
    expect(out.Subnets).toHaveLength(4);
    expect(out.$metadata.attempts).toBe(3);
    expect(mock.faults.calls('DescribeSubnets')).toBe(4);
    mock.faults.failNext({ service: 'ec2' }, 1, 'internal');
    await expect(ec2.send(new DescribeSubnetsCommand({}))).rejects.toMatchObject({
      name: 'InternalError',
      $metadata: { httpStatusCode: 500 },
    });
    retrying.destroy();
  });
});
