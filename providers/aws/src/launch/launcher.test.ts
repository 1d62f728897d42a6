import { CapacityTypes, Labels } from '@nodewright/core/apis';
import {
  CreateError,
  InsufficientCapacityError,
  NodeClassNotReadyError,
} from '@nodewright/core/cloudprovider';
import { describe, expect, it } from 'vitest';
import { instanceType, nodeClaim, readyNodeClass } from '../provider/testing/fixtures.js';
import { launchWorld } from '../provider/testing/world.js';

const catalog = () => [
  instanceType('m5.large', 0.096, { spotPrice: 0.04 }),
  instanceType('c5.large', 0.085, { spotPrice: 0.035 }),
  instanceType('m6g.large', 0.077, { spotPrice: 0.03, arch: 'arm64', pods: 29 }),
  instanceType('r5.large', 0.126, { spotPrice: 0.2 }),
];

describe('FleetLauncher request', () => {
  it('sends one instant spot fleet with overrides per type and zone, cheapest first, AMIs grouped', async () => {
    const w = launchWorld();
    const launched = await w.launcher.launch({
      nodeClaim: nodeClaim('web-abc12'),
      nodeClass: readyNodeClass(),
      instanceTypes: catalog(),
    });
    const [req] = w.ec2.inputs('createFleet');
    expect(req?.Type).toBe('instant');
    expect(req?.TargetCapacitySpecification).toEqual({
      TotalTargetCapacity: 1,
      DefaultTargetCapacityType: 'spot',
    });
    expect(req?.SpotOptions).toEqual({ AllocationStrategy: 'price-capacity-optimized' });
    expect(req?.OnDemandOptions).toBeUndefined();
    const overrides = (req?.LaunchTemplateConfigs ?? []).flatMap((c) => c.Overrides ?? []);
    // r5.large spot (0.2) costs more than the cheapest on-demand (0.077): dropped.
    expect(
      overrides.map((o) => `${o.InstanceType}/${o.AvailabilityZone}/${o.SubnetId}/${o.Priority}`),
    ).toEqual([
      'm6g.large/us-west-2a/subnet-a/0',
      'm6g.large/us-west-2b/subnet-b/1',
      'c5.large/us-west-2a/subnet-a/2',
      'c5.large/us-west-2b/subnet-b/3',
      'm5.large/us-west-2a/subnet-a/4',
      'm5.large/us-west-2b/subnet-b/5',
    ]);
    // arm64 with 29 pods and amd64 with 58 pods: two launch templates (different AMI and maxPods).
    expect(req?.LaunchTemplateConfigs).toHaveLength(2);
    const created = w.ec2.inputs('createLaunchTemplate');
    expect(created.map((c) => c.LaunchTemplateData?.ImageId).sort()).toEqual(['ami-amd', 'ami-arm']);
    expect(launched.instance).toMatchObject({
      instanceType: 'm6g.large',
      zone: 'us-west-2a',
      capacityType: 'spot',
    });
    expect(launched.imageId).toBe('ami-arm');
    expect(launched.zoneId).toBe('usw2-az');
  });

  it('tags instances, volumes and the fleet with the ownership, NodePool, NodeClass and NodeClaim tags', async () => {
    const w = launchWorld();
    const nc = readyNodeClass((n) => {
      n.spec.tags = { team: 'web', 'cost-center': '42' };
    });
    await w.launcher.launch({ nodeClaim: nodeClaim('web-abc12'), nodeClass: nc, instanceTypes: catalog() });
    const [req] = w.ec2.inputs('createFleet');
    expect(req?.TagSpecifications?.map((t) => t.ResourceType)).toEqual(['instance', 'volume', 'fleet']);
    const tags = Object.fromEntries((req?.TagSpecifications?.[0]?.Tags ?? []).map((t) => [t.Key, t.Value]));
    expect(tags).toEqual({
      team: 'web',
      'cost-center': '42',
      'kubernetes.io/cluster/test-cluster': 'owned',
      'eks:eks-cluster-name': 'test-cluster',
      'karpenter.k8s.aws/ec2nodeclass': 'default',
      'karpenter.k8s.aws/cluster': 'test-cluster',
      'karpenter.sh/nodepool': 'default',
      'karpenter.sh/nodeclaim': 'web-abc12',
      Name: 'default/web-abc12',
    });
  });

  it('launches on-demand lowest-price when the claim allows only on-demand', async () => {
    const w = launchWorld();
    await w.launcher.launch({
      nodeClaim: nodeClaim('od-1', [{ key: Labels.CapacityType, operator: 'In', values: ['on-demand'] }]),
      nodeClass: readyNodeClass(),
      instanceTypes: catalog(),
    });
    const [req] = w.ec2.inputs('createFleet');
    expect(req?.TargetCapacitySpecification?.DefaultTargetCapacityType).toBe('on-demand');
    expect(req?.OnDemandOptions).toEqual({ AllocationStrategy: 'lowest-price' });
    expect(req?.SpotOptions).toBeUndefined();
    const types = (req?.LaunchTemplateConfigs ?? [])
      .flatMap((c) => c.Overrides ?? [])
      .map((o) => o.InstanceType);
    expect(new Set(types)).toEqual(new Set(['m6g.large', 'c5.large', 'm5.large', 'r5.large']));
  });

  it('falls back to on-demand when every spot offering is unavailable', async () => {
    const w = launchWorld();
    const types = [
      instanceType('m5.large', 0.096, {
        spotPrice: 0.04,
        unavailable: ['spot:us-west-2a', 'spot:us-west-2b'],
      }),
    ];
    await w.launcher.launch({ nodeClaim: nodeClaim('x'), nodeClass: readyNodeClass(), instanceTypes: types });
    expect(w.ec2.inputs('createFleet')[0]?.TargetCapacitySpecification?.DefaultTargetCapacityType).toBe(
      'on-demand',
    );
  });

  it('keeps at most 60 instance types, the cheapest', async () => {
    const w = launchWorld();
    const many = Array.from({ length: 80 }, (_, i) =>
      instanceType(`m${i}.large`, 1 + i / 100, { spotPrice: 0.5 + i / 1000 }),
    );
    await w.launcher.launch({
      nodeClaim: nodeClaim('big'),
      nodeClass: readyNodeClass(),
      instanceTypes: many,
    });
    const overrides = (w.ec2.inputs('createFleet')[0]?.LaunchTemplateConfigs ?? []).flatMap(
      (c) => c.Overrides ?? [],
    );
    const types = new Set<string>(overrides.map((o) => o.InstanceType ?? ''));
    expect(types.size).toBe(60);
    expect(types.has('m59.large')).toBe(true);
    expect(types.has('m60.large')).toBe(false);
  });

  it('uses, per zone, the subnet with the most free IPs and skips zones without any', async () => {
    const w = launchWorld(undefined, { 'subnet-a': 0, 'subnet-b': 10 });
    await w.launcher.launch({
      nodeClaim: nodeClaim('z'),
      nodeClass: readyNodeClass(),
      instanceTypes: catalog(),
    });
    const overrides = (w.ec2.inputs('createFleet')[0]?.LaunchTemplateConfigs ?? []).flatMap(
      (c) => c.Overrides ?? [],
    );
    expect(new Set(overrides.map((o) => o.SubnetId))).toEqual(new Set(['subnet-b']));
  });

  it('reuses launch templates across launches and finds them again after a restart', async () => {
    const w = launchWorld();
    const input = { nodeClaim: nodeClaim('a'), nodeClass: readyNodeClass(), instanceTypes: catalog() };
    await w.launcher.launch(input);
    await w.launcher.launch({ ...input, nodeClaim: nodeClaim('b') });
    expect(w.ec2.inputs('createLaunchTemplate')).toHaveLength(2);
    // A fresh launcher (restart) over the same EC2 finds the templates by name.
    const restarted = launchWorld();
    for (const name of w.templates) restarted.templates.add(name);
    await restarted.launcher.launch(input);
    expect(restarted.ec2.inputs('createLaunchTemplate')).toHaveLength(0);
    expect(restarted.ec2.inputs('describeLaunchTemplates')).toHaveLength(2);
  });
});

describe('FleetLauncher errors', () => {
  it('marks every refused offering unavailable and throws InsufficientCapacityError when all are capacity errors', async () => {
    const w = launchWorld(() => ({
      Errors: [
        {
          ErrorCode: 'InsufficientInstanceCapacity',
          ErrorMessage: 'no capacity',
          Lifecycle: 'spot',
          LaunchTemplateAndOverrides: {
            Overrides: { InstanceType: 'm6g.large', AvailabilityZone: 'us-west-2a' },
          },
        },
        {
          ErrorCode: 'MaxSpotInstanceCountExceeded',
          ErrorMessage: 'limit',
          Lifecycle: 'spot',
          LaunchTemplateAndOverrides: { Overrides: { InstanceType: 'c5.large', SubnetId: 'subnet-b' } },
        },
      ],
    }));
    const err = await w.launcher
      .launch({ nodeClaim: nodeClaim('ice'), nodeClass: readyNodeClass(), instanceTypes: catalog() })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientCapacityError);
    expect((err as InsufficientCapacityError).offerings).toEqual([
      'spot:m6g.large:us-west-2a',
      'spot:c5.large:us-west-2b',
    ]);
    expect(
      w.unavailable.isUnavailable({ capacityType: 'spot', instanceType: 'm6g.large', zone: 'us-west-2a' }),
    ).toBe(true);
    expect(
      w.unavailable.isUnavailable({ capacityType: 'spot', instanceType: 'c5.large', zone: 'us-west-2b' }),
    ).toBe(true);
    expect(
      w.unavailable.isUnavailable({ capacityType: 'spot', instanceType: 'm5.large', zone: 'us-west-2a' }),
    ).toBe(false);
    w.clock.step(3 * 60_000);
    expect(
      w.unavailable.isUnavailable({ capacityType: 'spot', instanceType: 'm6g.large', zone: 'us-west-2a' }),
    ).toBe(false);
    // One launch failure per refused offering, with its zone id and Karpenter's reason.
    const failures = await w.metrics.launchFailures.get();
    expect(failures.values.map((v) => [v.labels, v.value])).toEqual([
      [{ zone: 'us-west-2a', zone_id: 'usw2-az', capacity_type: 'spot', reason: 'LaunchFailed' }, 1],
      [{ zone: 'us-west-2b', zone_id: 'usw2-bz', capacity_type: 'spot', reason: 'SpotQuotaExceeded' }, 1],
    ]);
    const userData = await w.metrics.userDataBytes.get();
    const bytes = userData.values.find((v) => v.labels.nodeclass === readyNodeClass().metadata.name)?.value;
    expect(bytes).toBeGreaterThan(100);
    expect(bytes).toBeLessThan(16_384);
  });

  it.each([
    'InsufficientInstanceCapacity',
    'MaxSpotInstanceCountExceeded',
    'VcpuLimitExceeded',
    'UnfulfillableCapacity',
    'Unsupported',
    'InsufficientFreeAddressesInSubnet',
  ])('%s marks the offering unavailable', async (code) => {
    const w = launchWorld(() => ({
      Errors: [
        {
          ErrorCode: code,
          Lifecycle: 'on-demand',
          LaunchTemplateAndOverrides: {
            Overrides: { InstanceType: 'm5.large', AvailabilityZone: 'us-west-2b' },
          },
        },
      ],
    }));
    await expect(
      w.launcher.launch({
        nodeClaim: nodeClaim('c', [{ key: Labels.CapacityType, operator: 'In', values: ['on-demand'] }]),
        nodeClass: readyNodeClass(),
        instanceTypes: catalog(),
      }),
    ).rejects.toBeInstanceOf(InsufficientCapacityError);
    expect(
      w.unavailable.reason({ capacityType: 'on-demand', instanceType: 'm5.large', zone: 'us-west-2b' }),
    ).toContain(code);
  });

  it('throws CreateError with the AWS code and message for other errorSet codes', async () => {
    const w = launchWorld(() => ({
      Errors: [
        {
          ErrorCode: 'InvalidParameterValue',
          ErrorMessage: 'bad IAM instance profile',
          LaunchTemplateAndOverrides: {
            Overrides: { InstanceType: 'm5.large', AvailabilityZone: 'us-west-2a' },
          },
        },
        {
          ErrorCode: 'InsufficientInstanceCapacity',
          LaunchTemplateAndOverrides: {
            Overrides: { InstanceType: 'c5.large', AvailabilityZone: 'us-west-2a' },
          },
        },
      ],
    }));
    const err = await w.launcher
      .launch({ nodeClaim: nodeClaim('e'), nodeClass: readyNodeClass(), instanceTypes: catalog() })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CreateError);
    expect((err as CreateError).conditionReason).toBe('InvalidParameterValue');
    expect((err as CreateError).conditionMessage).toBe('bad IAM instance profile');
    // The capacity error in the same answer still marks its offering.
    expect(
      w.unavailable.isUnavailable({
        capacityType: CapacityTypes.Spot,
        instanceType: 'c5.large',
        zone: 'us-west-2a',
      }),
    ).toBe(true);
  });

  it('throws CreateError with the code of a CreateFleet exception', async () => {
    const w = launchWorld(() => {
      throw Object.assign(new Error('You are not authorized'), {
        name: 'UnauthorizedOperation',
        $metadata: {},
      });
    });
    const err = await w.launcher
      .launch({ nodeClaim: nodeClaim('u'), nodeClass: readyNodeClass(), instanceTypes: catalog() })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CreateError);
    expect((err as CreateError).conditionReason).toBe('UnauthorizedOperation');
    expect((err as CreateError).conditionMessage).toContain('You are not authorized');
  });

  it('is InsufficientCapacityError without calling CreateFleet when every allowed offering is unavailable', async () => {
    const w = launchWorld();
    const types = [
      instanceType('m5.large', 0.1, { unavailable: ['on-demand:us-west-2a', 'on-demand:us-west-2b'] }),
    ];
    await expect(
      w.launcher.launch({ nodeClaim: nodeClaim('n'), nodeClass: readyNodeClass(), instanceTypes: types }),
    ).rejects.toBeInstanceOf(InsufficientCapacityError);
    expect(w.ec2.inputs('createFleet')).toHaveLength(0);
  });

  it('is NodeClassNotReadyError when the status has no AMIs', async () => {
    const w = launchWorld();
    const nc = readyNodeClass((n) => {
      n.status = { ...n.status, amis: [] };
    });
    const err = await w.launcher
      .launch({ nodeClaim: nodeClaim('n'), nodeClass: nc, instanceTypes: catalog() })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeClassNotReadyError);
    expect((err as Error).message).toContain('status.amis');
  });

  it('fails with a reason naming the key when the 60 kept types miss minValues', async () => {
    const w = launchWorld();
    const many = Array.from({ length: 70 }, (_, i) => instanceType(`m${i}.large`, 1 + i / 100));
    const err = await w.launcher
      .launch({
        nodeClaim: nodeClaim('mv', [{ key: Labels.InstanceType, operator: 'Exists', minValues: 65 }]),
        nodeClass: readyNodeClass(),
        instanceTypes: many,
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CreateError);
    expect((err as CreateError).conditionMessage).toContain(Labels.InstanceType);
  });
});

describe('FleetLauncher spot filtering', () => {
  it('drops spot types dearer than the cheapest on-demand type', async () => {
    const w = launchWorld();
    const types = Array.from({ length: 10 }, (_, i) =>
      instanceType(`m${i}.large`, 1 + i / 100, { spotPrice: 0.5 + i / 10 }),
    );
    await w.launcher.launch({ nodeClaim: nodeClaim('s'), nodeClass: readyNodeClass(), instanceTypes: types });
    const overrides = (w.ec2.inputs('createFleet')[0]?.LaunchTemplateConfigs ?? []).flatMap(
      (c) => c.Overrides ?? [],
    );
    // spot 0.5..1.0 are at most the cheapest on-demand (1.0): m0..m5.
    expect(new Set(overrides.map((o) => o.InstanceType))).toEqual(
      new Set(['m0.large', 'm1.large', 'm2.large', 'm3.large', 'm4.large', 'm5.large']),
    );
  });
});

describe('FleetLauncher offering labels', () => {
  it('launches offerings that carry a zone-id label the claim does not constrain', async () => {
    const { newInstanceType, newOffering } = await import('@nodewright/core/cloudprovider');
    const { Requirement } = await import('@nodewright/core/scheduling');
    const base = instanceType('m5.large', 0.1);
    const withZoneId = newInstanceType({
      name: base.name,
      requirements: base.requirements,
      capacity: base.capacity,
      offerings: ['us-west-2a', 'us-west-2b'].map((zone) =>
        newOffering({
          zone,
          capacityType: 'on-demand',
          price: 0.1,
          extraRequirements: [
            Requirement.create('topology.k8s.aws/zone-id', 'In', [`usw2-${zone.slice(-1)}z`]),
          ],
        }),
      ),
    });
    const w = launchWorld();
    await w.launcher.launch({
      nodeClaim: nodeClaim('zid'),
      nodeClass: readyNodeClass(),
      instanceTypes: [withZoneId],
    });
    expect(w.ec2.inputs('createFleet')).toHaveLength(1);
    // A claim pinned to one zone still excludes the other.
    const pinned = launchWorld();
    await pinned.launcher.launch({
      nodeClaim: nodeClaim('zid2', [{ key: Labels.Zone, operator: 'In', values: ['us-west-2b'] }]),
      nodeClass: readyNodeClass(),
      instanceTypes: [withZoneId],
    });
    const overrides = (pinned.ec2.inputs('createFleet')[0]?.LaunchTemplateConfigs ?? []).flatMap(
      (c) => c.Overrides ?? [],
    );
    expect(overrides.map((o) => o.AvailabilityZone)).toEqual(['us-west-2b']);
  });
});
