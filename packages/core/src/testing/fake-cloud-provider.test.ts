import { describe, expect, it } from 'vitest';
import { CapacityTypes, Labels } from '../apis/labels.js';
import { FakeClock } from '../clock/clock.js';
import {
  CreateError,
  InsufficientCapacityError,
  isNodeClaimNotFound,
  NodeClaimNotFoundError,
  NodeClassNotReadyError,
} from '../cloudprovider/errors.js';
import { FakeCloudProvider } from './fake-cloud-provider.js';
import { FakeSpotDiscount, FakeZones } from './fake-instance-types.js';
import { aNodeClaim } from './nodeclaim-builder.js';
import { aNodePool } from './nodepool-builder.js';

const claim = (
  name: string,
  requirements: { key: string; operator: 'In'; values: string[] }[] = [],
  cpu = '1',
) =>
  aNodeClaim({
    metadata: { name },
    spec: {
      requirements: [{ key: Labels.NodePool, operator: 'In', values: ['default'] }, ...requirements],
      resources: { requests: { cpu } },
    },
  });

describe('FakeCloudProvider (provider contract)', () => {
  it('create launches the cheapest available compatible offering and hydrates the claim', async () => {
    const clock = new FakeClock(Date.parse('2026-03-01T00:00:00Z'));
    const cloud = new FakeCloudProvider({ clock });
    const created = await cloud.create(claim('a'));
    expect(created.status?.providerID).toBe('fake://a');
    expect(created.metadata.labels?.[Labels.InstanceType]).toBe('fake-small');
    expect(created.metadata.labels?.[Labels.CapacityType]).toBe(CapacityTypes.Spot);
    expect(FakeZones).toContain(created.metadata.labels?.[Labels.Zone]);
    expect(created.metadata.labels?.[Labels.NodePool]).toBe('default');
    expect(created.status?.capacity).toMatchObject({ cpu: '2', memory: '4Gi' });
    expect(created.status?.allocatable).toBeDefined();
    expect(created.status?.imageID).toBe('fake-image-1');
    const onDemand = await cloud.create(
      claim('b', [{ key: Labels.CapacityType, operator: 'In', values: ['on-demand'] }], '3'),
    );
    expect(onDemand.metadata.labels?.[Labels.InstanceType]).toBe('fake-medium');
    expect(onDemand.metadata.labels?.[Labels.CapacityType]).toBe('on-demand');
    expect(cloud.instances()).toHaveLength(2);
  });

  it('create is idempotent per NodeClaim name', async () => {
    const cloud = new FakeCloudProvider();
    const first = await cloud.create(claim('a'));
    const again = await cloud.create(claim('a'));
    expect(again.status?.providerID).toBe(first.status?.providerID);
    expect(cloud.instances()).toHaveLength(1);
    expect(cloud.calls.create).toHaveLength(2);
  });

  it('throws InsufficientCapacity when nothing allowed is available, and NodeClassNotReady for foreign classes', async () => {
    const cloud = new FakeCloudProvider();
    for (const zone of FakeZones) {
      for (const capacityType of ['spot', 'on-demand']) {
        cloud.unavailableOfferings.markUnavailable({ capacityType, instanceType: 'fake-small', zone }, 'ICE');
      }
    }
    const err = await cloud
      .create(claim('a', [{ key: Labels.InstanceType, operator: 'In', values: ['fake-small'] }]))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientCapacityError);
    expect((err as InsufficientCapacityError).offerings).toHaveLength(6);
    await expect(cloud.create(claim('b', [], '64'))).rejects.toBeInstanceOf(InsufficientCapacityError);
    const foreign = aNodeClaim({ spec: { nodeClassRef: { group: 'other.io', kind: 'Other', name: 'x' } } });
    await expect(cloud.create(foreign)).rejects.toBeInstanceOf(NodeClassNotReadyError);
    expect(cloud.instances()).toHaveLength(0);
  });

  it('getInstanceTypes lists every type, unavailable offerings marked so, with spot cheaper', async () => {
    const cloud = new FakeCloudProvider();
    cloud.unavailableOfferings.markUnavailable(
      { capacityType: 'spot', instanceType: 'fake-large', zone: 'test-zone-a' },
      'ICE',
    );
    const types = await cloud.getInstanceTypes(aNodePool());
    expect(types.map((t) => t.name)).toEqual([
      'fake-small',
      'fake-medium',
      'fake-large',
      'fake-xlarge',
      'fake-gpu',
    ]);
    const large = types.find((t) => t.name === 'fake-large')!;
    expect(large.offerings.filter((o) => !o.available)).toEqual([
      expect.objectContaining({ capacityType: 'spot', zone: 'test-zone-a' }),
    ]);
    const small = types[0]!;
    const spot = small.offerings.find((o) => o.capacityType === 'spot')!;
    const od = small.offerings.find((o) => o.capacityType === 'on-demand')!;
    expect(spot.price).toBeCloseTo(od.price * FakeSpotDiscount);
  });

  it('delete succeeds while the instance shuts down, then throws NodeClaimNotFound; get and list agree', async () => {
    const clock = new FakeClock(0);
    const cloud = new FakeCloudProvider({ clock, terminationDelayMs: 10_000 });
    const created = await cloud.create(claim('a'));
    await cloud.delete(created);
    clock.step(5_000);
    await cloud.delete(created);
    expect((await cloud.get('fake://a')).metadata.name).toBe('a');
    expect(await cloud.list()).toHaveLength(1);
    clock.step(5_000);
    await expect(cloud.delete(created)).rejects.toBeInstanceOf(NodeClaimNotFoundError);
    await expect(cloud.get('fake://a')).rejects.toSatisfy(isNodeClaimNotFound);
    expect(await cloud.list()).toEqual([]);
  });

  it('records calls and fails on demand, per call or by policy', async () => {
    const cloud = new FakeCloudProvider();
    cloud.failNext('create', new CreateError('QuotaExceeded', 'no quota'), 2);
    await expect(cloud.create(claim('a'))).rejects.toBeInstanceOf(CreateError);
    await expect(cloud.create(claim('a'))).rejects.toBeInstanceOf(CreateError);
    await expect(cloud.create(claim('a'))).resolves.toBeDefined();
    cloud.failWhen('get', (id) => (id === 'fake://x' ? new Error('throttled') : undefined));
    await expect(cloud.get('fake://x')).rejects.toThrow('throttled');
    await expect(cloud.get('fake://a')).resolves.toBeDefined();
    expect(cloud.calls.create.map((c) => c.metadata.name)).toEqual(['a', 'a', 'a']);
    expect(cloud.calls.get).toEqual(['fake://x', 'fake://a']);
    cloud.clearFailures();
    await expect(cloud.get('fake://x')).rejects.toBeInstanceOf(NodeClaimNotFoundError);
  });

  it('reports drift, repair policies and node classes (the first is the default)', async () => {
    const cloud = new FakeCloudProvider({
      repairPolicies: [{ conditionType: 'Ready', conditionStatus: 'False', tolerationDurationMs: 60_000 }],
    });
    const created = await cloud.create(claim('a'));
    expect(await cloud.isDrifted(created)).toBeUndefined();
    cloud.setDrifted('fake://a', 'ImageDrift');
    expect(await cloud.isDrifted(created)).toBe('ImageDrift');
    expect(cloud.repairPolicies()).toHaveLength(1);
    expect(cloud.supportedNodeClasses()[0]).toEqual({ group: 'karpenter.test.sh', kind: 'TestNodeClass' });
  });
});
