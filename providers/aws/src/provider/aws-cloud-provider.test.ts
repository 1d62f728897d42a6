import { Labels } from '@nodewright/core/apis';
import {
  CreateError,
  InsufficientCapacityError,
  NodeClaimNotFoundError,
  NodeClassNotReadyError,
} from '@nodewright/core/cloudprovider';
import { MemoryCluster } from '@nodewright/core/kube';
import { describe, expect, it } from 'vitest';
import { type EC2NodeClass, EC2NodeClassAnnotations, ec2NodeClassHash } from '../apis/index.js';
import {
  DescribeConsistencyWindowMs,
  InstanceNotListedYetError,
  Instances,
  NotOwnedInstanceError,
} from '../instance/instances.js';
import { AwsCloudProvider } from './aws-cloud-provider.js';
import { EC2NodeClasses, NodeClassReader } from './nodeclass-reader.js';
import { awsError } from './testing/fake-ec2.js';
import { fakeInstanceTypes, instanceType, nodeClaim, readyNodeClass } from './testing/fixtures.js';
import { launchWorld } from './testing/world.js';

const catalog = () => [
  instanceType('m5.large', 0.096, { spotPrice: 0.04 }),
  instanceType('c5.large', 0.085, { spotPrice: 0.035 }),
];

interface StoredInstance {
  id: string;
  state: string;
  tags: Record<string, string>;
  type: string;
  zone: string;
  subnet: string;
  groups: string[];
  image: string;
  spot: boolean;
}

/** A provider over a memory cluster and a fake EC2 that remembers the instances CreateFleet made. */
async function providerWorld(nodeClass: EC2NodeClass | null = readyNodeClass()) {
  const stored = new Map<string, StoredInstance>();
  let next = 1;
  const w = launchWorld((input) => {
    const o = input.LaunchTemplateConfigs?.[0]?.Overrides?.[0];
    const id = `i-${String(next++).padStart(17, '0')}`;
    const tags = Object.fromEntries(
      (input.TagSpecifications?.[0]?.Tags ?? []).map((t) => [t.Key ?? '', t.Value ?? '']),
    );
    stored.set(id, {
      id,
      state: 'pending',
      tags,
      type: o?.InstanceType ?? '',
      zone: o?.AvailabilityZone ?? '',
      subnet: o?.SubnetId ?? '',
      groups: ['sg-1'],
      image: 'ami-amd',
      spot: input.TargetCapacitySpecification?.DefaultTargetCapacityType === 'spot',
    });
    return {
      Instances: [
        {
          InstanceIds: [id],
          InstanceType: o?.InstanceType,
          Lifecycle:
            input.TargetCapacitySpecification?.DefaultTargetCapacityType === 'spot' ? 'spot' : 'on-demand',
          LaunchTemplateAndOverrides: { Overrides: { ...o } },
        },
      ],
    };
  });
  const view = (i: StoredInstance) => ({
    InstanceId: i.id,
    InstanceType: i.type as never,
    Placement: { AvailabilityZone: i.zone, AvailabilityZoneId: `usw2-${i.zone.slice(-1)}z` },
    State: { Name: i.state as never },
    SubnetId: i.subnet,
    SecurityGroups: i.groups.map((g) => ({ GroupId: g })),
    ImageId: i.image,
    Architecture: 'x86_64' as const,
    LaunchTime: new Date('2026-06-01T00:00:00Z'),
    ...(i.spot ? { InstanceLifecycle: 'spot' as const } : {}),
    Tags: Object.entries(i.tags).map(([Key, Value]) => ({ Key, Value })),
  });
  w.ec2
    .on('describeInstances', (input) => {
      if (input.InstanceIds !== undefined) {
        const found = input.InstanceIds.map((id) => stored.get(id));
        if (found.some((f) => f === undefined)) throw awsError('InvalidInstanceID.NotFound');
        return { Reservations: [{ Instances: found.map((f) => view(f!)) }] };
      }
      const matches = [...stored.values()].filter((i) =>
        (input.Filters ?? []).every((f) => {
          if (f.Name === 'instance-state-name') return f.Values?.includes(i.state);
          if (f.Name === 'tag-key') return f.Values?.some((k) => k in i.tags);
          if (f.Name?.startsWith('tag:')) return f.Values?.includes(i.tags[f.Name.slice(4)] ?? '\u0000');
          return true;
        }),
      );
      return { Reservations: [{ Instances: matches.map(view) }] };
    })
    .on('terminateInstances', (input) => {
      for (const id of input.InstanceIds ?? []) {
        const i = stored.get(id);
        if (i === undefined) throw awsError('InvalidInstanceID.NotFound');
        i.state = 'shutting-down';
      }
      return {};
    });
  const cluster = new MemoryCluster({ clock: w.clock, kinds: [EC2NodeClasses] });
  if (nodeClass !== null) {
    await cluster.create(EC2NodeClasses, nodeClass);
    await cluster.updateStatus(EC2NodeClasses, {
      ...(await cluster.get(EC2NodeClasses, { name: 'default' })),
      status: nodeClass.status,
    });
  }
  const types = fakeInstanceTypes(catalog());
  const provider = new AwsCloudProvider({
    nodeClasses: new NodeClassReader(cluster),
    instanceTypes: types,
    launcher: w.launcher,
    instances: new Instances({
      ec2: w.ec2.api,
      clusterName: 'test-cluster',
      clock: w.clock,
      terminationFailures: w.metrics.terminationFailures,
    }),
    logger: w.logger,
    caBundle: 'Q0EtQlVORExF',
  });
  return { ...w, stored, cluster, provider, types };
}

describe('AwsCloudProvider.create', () => {
  it('launches and hydrates the claim: providerID, labels, capacity, image, hash annotations', async () => {
    const w = await providerWorld();
    const claim = await w.provider.create(nodeClaim('web-1'));
    const [id] = [...w.stored.keys()];
    expect(claim.status?.providerID).toBe(`aws:///us-west-2a/${id}`);
    expect(claim.status?.imageID).toBe('ami-amd');
    expect(claim.status?.capacity).toMatchObject({ cpu: '8', memory: '32Gi', pods: '58' });
    expect(claim.status?.allocatable?.cpu).toBe('8');
    expect(claim.metadata.labels).toMatchObject({
      [Labels.InstanceType]: 'c5.large',
      [Labels.Zone]: 'us-west-2a',
      [Labels.CapacityType]: 'spot',
      [Labels.Arch]: 'amd64',
      'topology.k8s.aws/zone-id': 'usw2-az',
      [Labels.NodePool]: 'default',
      'team.example.com/owner': 'web',
    });
    expect(claim.metadata.annotations?.[EC2NodeClassAnnotations.Hash]).toBe(
      ec2NodeClassHash(readyNodeClass(), 'Q0EtQlVORExF'),
    );
  });

  it('is idempotent per NodeClaim: a retry after a crash adopts the tagged instance instead of launching again', async () => {
    const w = await providerWorld();
    const first = await w.provider.create(nodeClaim('web-1'));
    // The crash: the status write with the providerID never happened; core calls create again.
    const second = await w.provider.create(nodeClaim('web-1'));
    expect(w.ec2.inputs('createFleet')).toHaveLength(1);
    expect(w.stored.size).toBe(1);
    expect(second.status?.providerID).toBe(first.status?.providerID);
    expect(second.metadata.labels?.[Labels.CapacityType]).toBe('spot');
    expect(second.status?.capacity).toEqual(first.status?.capacity);
    // The lookup that made it safe: by NodeClaim tag, cluster tag, live states.
    const lookup = w.ec2.inputs('describeInstances')[0];
    expect(lookup?.Filters).toEqual([
      { Name: 'tag:karpenter.sh/nodeclaim', Values: ['web-1'] },
      { Name: 'tag:kubernetes.io/cluster/test-cluster', Values: ['owned'] },
      { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] },
    ]);
  });

  it('launches anew once the earlier instance of the name is terminated', async () => {
    const w = await providerWorld();
    await w.provider.create(nodeClaim('web-1'));
    for (const i of w.stored.values()) i.state = 'terminated';
    await w.provider.create(nodeClaim('web-1'));
    expect(w.ec2.inputs('createFleet')).toHaveLength(2);
  });

  it('refuses with NodeClassNotReadyError when the EC2NodeClass is missing', async () => {
    const w = await providerWorld(null);
    const err = await w.provider.create(nodeClaim('x')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeClassNotReadyError);
    expect((err as Error).message).toContain('EC2NodeClass default not found');
    expect(w.ec2.calls).toHaveLength(0);
  });

  it('refuses with NodeClassNotReadyError when Ready is not True, naming the reason', async () => {
    const w = await providerWorld(
      readyNodeClass((nc) => {
        nc.status = {
          ...nc.status,
          conditions: [
            {
              type: 'Ready',
              status: 'False',
              lastTransitionTime: '2026-01-01T00:00:00Z',
              reason: 'SubnetsNotFound',
              message: 'no subnet matched',
            },
          ],
        };
      }),
    );
    const err = await w.provider.create(nodeClaim('x')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NodeClassNotReadyError);
    expect((err as Error).message).toBe(
      'EC2NodeClass default is not Ready (SubnetsNotFound: no subnet matched)',
    );
    expect(w.ec2.inputs('createFleet')).toHaveLength(0);
  });

  it('refuses a NodeClaim of another NodeClass kind', async () => {
    const w = await providerWorld();
    const claim = nodeClaim('x', [], (c) => {
      c.spec.nodeClassRef = { group: 'karpenter.azure.com', kind: 'AKSNodeClass', name: 'default' };
    });
    await expect(w.provider.create(claim)).rejects.toBeInstanceOf(NodeClassNotReadyError);
  });
});

describe('AwsCloudProvider get, list, delete', () => {
  it('gets, lists and deletes by providerID; NotFound once terminated', async () => {
    const w = await providerWorld();
    const claim = await w.provider.create(nodeClaim('web-1'));
    const providerID = claim.status?.providerID ?? '';
    const got = await w.provider.get(providerID);
    expect(got.metadata.name).toBe('web-1');
    expect(got.status?.providerID).toBe(providerID);
    expect(got.metadata.labels?.[Labels.NodePool]).toBe('default');
    expect(got.spec.nodeClassRef.name).toBe('default');
    expect((await w.provider.list()).map((c) => c.status?.providerID)).toEqual([providerID]);

    await w.provider.delete(claim);
    expect(w.ec2.inputs('terminateInstances')).toEqual([{ InstanceIds: [providerID.split('/').pop()] }]);
    // Shutting down: delete keeps returning (termination under way) without terminating again.
    await w.provider.delete(claim);
    expect(w.ec2.inputs('terminateInstances')).toHaveLength(1);
    for (const i of w.stored.values()) i.state = 'terminated';
    await expect(w.provider.delete(claim)).rejects.toBeInstanceOf(NodeClaimNotFoundError);
    await expect(w.provider.get(providerID)).rejects.toBeInstanceOf(NodeClaimNotFoundError);
    expect(await w.provider.list()).toEqual([]);
  });

  it('is NodeClaimNotFoundError for an unknown instance and for a non-AWS providerID', async () => {
    const w = await providerWorld();
    await expect(w.provider.get('aws:///us-west-2a/i-0000000000000dead')).rejects.toBeInstanceOf(
      NodeClaimNotFoundError,
    );
    await expect(w.provider.get('kwok://node-1')).rejects.toBeInstanceOf(NodeClaimNotFoundError);
  });

  it('counts a failed TerminateInstances by the instance zone and zone id, and retries it on the next delete', async () => {
    const w = await providerWorld();
    const claim = await w.provider.create(nodeClaim('web-1'));
    w.ec2.on('terminateInstances', () => {
      throw awsError('RequestLimitExceeded');
    });
    await expect(w.provider.delete(claim)).rejects.toThrow();
    const failures = await w.metrics.terminationFailures.get();
    expect(failures.values.map((v) => [v.labels, v.value])).toEqual([
      [{ zone: 'us-west-2a', zone_id: 'usw2-az' }, 1],
    ]);
  });

  it('deletes the tagged instance of a claim that never recorded its providerID', async () => {
    const w = await providerWorld();
    await w.provider.create(nodeClaim('web-1'));
    await w.provider.delete(nodeClaim('web-1'));
    expect(w.ec2.inputs('terminateInstances')).toHaveLength(1);
  });
});

describe('AwsCloudProvider idempotent launches (issue 14 item 4)', () => {
  const withUid = (name: string, uid: string) =>
    nodeClaim(name, [], (c) => {
      c.metadata.uid = uid;
    });
  const tokens = (w: Awaited<ReturnType<typeof providerWorld>>) =>
    w.ec2.inputs('createFleet').map((i) => i.ClientToken);

  it('sends the NodeClaim uid as ClientToken: the same after a lost answer, a new one after a refusal', async () => {
    const w = await providerWorld();
    const answer = w.ec2;
    const claim = withUid('web-1', '6f1c2a9e-0000-4000-8000-000000000001');
    answer.on('createFleet', () => {
      throw new Error('socket hang up'); // no answer: the launch may have happened
    });
    await expect(w.provider.create(claim)).rejects.toBeInstanceOf(CreateError);
    await expect(w.provider.create(claim)).rejects.toBeInstanceOf(CreateError);
    answer.on('createFleet', () => ({
      Errors: [{ ErrorCode: 'InsufficientInstanceCapacity', ErrorMessage: 'no capacity', Lifecycle: 'spot' }],
    }));
    await expect(w.provider.create(claim)).rejects.toBeInstanceOf(InsufficientCapacityError);
    answer.on('createFleet', () => {
      throw awsError('InvalidParameterValue'); // a 400: refused, nothing launched
    });
    await expect(w.provider.create(claim)).rejects.toBeInstanceOf(CreateError);
    answer.on('createFleet', () => {
      throw awsError('IdempotentParameterMismatch');
    });
    await expect(w.provider.create(claim)).rejects.toMatchObject({
      conditionReason: 'IdempotentParameterMismatch',
    });
    await expect(w.provider.create(claim)).rejects.toMatchObject({
      conditionReason: 'IdempotentParameterMismatch',
    });
    const uid = claim.metadata.uid;
    expect(tokens(w)).toEqual([uid, uid, uid, `${uid}-1`, `${uid}-2`, `${uid}-2`]);
  });

  it("names the token after the claim name when the claim has no uid, within EC2's 64 characters", async () => {
    const w = await providerWorld();
    await w.provider.create(nodeClaim(`web-${'x'.repeat(58)}`));
    const [token] = tokens(w);
    expect(token).toMatch(/^name-[0-9a-f]{40}$/);
  });

  it('an instance launched moments ago that DescribeInstances does not list yet is not gone, until the window passes', async () => {
    const w = await providerWorld();
    const claim = await w.provider.create(nodeClaim('web-1'));
    const providerID = claim.status?.providerID ?? '';
    const [id] = [...w.stored.keys()];
    const stored = w.stored.get(id!)!;
    w.stored.delete(id!); // EC2's eventual consistency: not listed yet
    await expect(w.provider.get(providerID)).rejects.toBeInstanceOf(InstanceNotListedYetError);
    await expect(w.provider.delete(claim)).rejects.toBeInstanceOf(InstanceNotListedYetError);
    w.stored.set(id!, stored);
    await expect(w.provider.get(providerID)).resolves.toBeDefined();
    w.stored.delete(id!);
    w.clock.step(DescribeConsistencyWindowMs);
    await expect(w.provider.get(providerID)).rejects.toBeInstanceOf(NodeClaimNotFoundError);
    await expect(w.provider.get(providerID)).rejects.not.toBeInstanceOf(InstanceNotListedYetError);
  });

  it.each([
    ['karpenter.sh/nodepool', (tags: Record<string, string>) => delete tags['karpenter.sh/nodepool']],
    [
      'kubernetes.io/cluster/test-cluster=owned',
      (tags: Record<string, string>) => {
        tags['kubernetes.io/cluster/test-cluster'] = 'shared';
      },
    ],
  ])('refuses to terminate an instance without the %s tag', async (missing, untag) => {
    const w = await providerWorld();
    const claim = await w.provider.create(nodeClaim('web-1'));
    for (const i of w.stored.values()) untag(i.tags);
    const refused = w.provider.delete(claim);
    await expect(refused).rejects.toBeInstanceOf(NotOwnedInstanceError);
    await expect(refused).rejects.toThrow(`no ${missing} tag`);
    expect(w.ec2.inputs('terminateInstances')).toEqual([]);
  });
});

describe('AwsCloudProvider drift and metadata', () => {
  it('reports SecurityGroupDrift when the instance runs with other groups than the status lists', async () => {
    const w = await providerWorld();
    const claim = await w.provider.create(nodeClaim('web-1'));
    expect(await w.provider.isDrifted(claim)).toBeUndefined();
    for (const i of w.stored.values()) i.groups = ['sg-old'];
    expect(await w.provider.isDrifted(claim)).toBe('SecurityGroupDrift');
  });

  it('reports NodeClassDrift after a hashed field of the EC2NodeClass changes', async () => {
    const w = await providerWorld();
    const claim = await w.provider.create(nodeClaim('web-1'));
    const nc = await w.cluster.get(EC2NodeClasses, { name: 'default' });
    await w.cluster.update(EC2NodeClasses, { ...nc, spec: { ...nc.spec, tags: { team: 'new' } } });
    expect(await w.provider.isDrifted(claim)).toBe('NodeClassDrift');
  });

  it('supports EC2NodeClass and repairs on Ready False/Unknown after 30 min', async () => {
    const w = await providerWorld();
    expect(w.provider.supportedNodeClasses()).toEqual([{ group: 'karpenter.k8s.aws', kind: 'EC2NodeClass' }]);
    expect(w.provider.repairPolicies()).toContainEqual({
      conditionType: 'Ready',
      conditionStatus: 'Unknown',
      tolerationDurationMs: 1_800_000,
    });
    expect(w.provider.interruptions).toBeUndefined();
  });

  it('serves the instance types of the NodePool EC2NodeClass', async () => {
    const w = await providerWorld();
    const pool = {
      spec: {
        template: {
          spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' } },
        },
      },
    };
    const types = await w.provider.getInstanceTypes(pool as never);
    expect(types.map((t) => t.name)).toEqual(['m5.large', 'c5.large']);
    expect(w.types.asked).toEqual(['default']);
  });
});
