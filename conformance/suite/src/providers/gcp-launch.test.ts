import { InstancesClient } from '@google-cloud/compute';
import { InsufficientCapacityError } from '@nodewright/core/cloudprovider';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractClaims, requestsOf, requirementsOf } from '../provider-contract/contract-claims.js';
import { compatibleOfferings } from '../provider-contract/instance-type-checks.js';
import { type GcpWorld, startGcpWorld } from './gcp-harness.js';

// How the GCP provider launches with `launchMode=insert` (one instances.insert per offering),
// through the real @google-cloud/compute clients against the GCE mock: what insert sends,
// failover across stocked-out offerings inside one create, quota scope, retries, and that a
// failed launch leaves nothing behind. gcp-bulk-launch.test.ts has the default bulkInsert mode.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let world: GcpWorld;
let claims: ContractClaims;
let sdk: InstancesClient;

beforeEach(async () => {
  // A preempted VM stays STOPPING for 10 s rather than the mock's 100 ms, so reading it back
  // for its offering does not race the machine's load.
  world = await startGcpWorld({ settings: { launchMode: 'insert' }, mockTimings: { stopMs: 10_000 } });
  claims = new ContractClaims(world.nodePool);
  sdk = new InstancesClient(world.mock.clientOptions);
});
afterEach(async () => {
  await sdk.close();
  await world.instance.close?.();
  await world.mock.close();
});

const provider = () => world.instance.cloudProvider;
const last = (s: string | null | undefined) => (s ?? '').slice((s ?? '').lastIndexOf('/') + 1);

const only = (capacityType: 'spot' | 'on-demand') =>
  claims.claim([{ key: 'karpenter.sh/capacity-type', operator: 'In', values: [capacityType] }]);

/** The `n` offerings a claim of this capacity type launches on first, as getInstanceTypes prices them. */
async function cheapestOfferings(n: number, capacityType: 'spot' | 'on-demand') {
  const types = await provider().getInstanceTypes(world.nodePool);
  const probe = only(capacityType);
  return compatibleOfferings(types, requirementsOf(probe), requestsOf(probe))
    .sort(
      (a, b) =>
        a.price - b.price || a.instanceType.localeCompare(b.instanceType) || a.zone.localeCompare(b.zone),
    )
    .slice(0, n)
    .map((o) => ({ o, t: types.find((t) => t.name === o.instanceType)! }));
}

describe('gcp launch (SDK against the GCE mock)', () => {
  it('inserts a spot VM with SPOT/DELETE scheduling, the cluster labels and the kubelet metadata', async () => {
    const claim = claims.claim([{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] }]);
    claim.spec.taints = [{ key: 'example.com/dedicated', value: 'web', effect: 'NoSchedule' }];
    claim.spec.startupTaints = [{ key: 'example.com/booting', effect: 'NoExecute' }];
    const created = await provider().create(claim);
    const [, , zone, name] =
      /^gce:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(created.status?.providerID ?? '') ?? [];
    const [vm] = await sdk.get({ project: world.mock.project, zone: zone!, instance: name! });
    expect(vm.scheduling).toMatchObject({ provisioningModel: 'SPOT', instanceTerminationAction: 'DELETE' });
    expect(vm.labels).toMatchObject({
      'goog-k8s-cluster-name': `contract-${world.suffix}`,
      'karpenter-sh-nodepool': world.nodePool.metadata.name,
      'karpenter-sh-nodeclaim': claim.metadata.name,
      'karpenter-k8s-gcp-gcenodeclass': world.nodeClassName,
    });
    const meta = Object.fromEntries((vm.metadata?.items ?? []).map((i) => [i.key, i.value]));
    expect(meta['kube-taints']).toBe('example.com/dedicated=web:NoSchedule');
    expect(meta['kube-startup-taints']).toBe('example.com/booting:NoExecute');
    expect(meta['kube-labels']).toContain(`karpenter.sh/nodepool=${world.nodePool.metadata.name}`);
    expect(meta['kube-labels']).toContain('karpenter.sh/capacity-type=spot');
    expect(meta['nodewright-image']).toMatch(/^projects\/cos-cloud\/global\/images\/cos-stable-/);
    expect(created.metadata.labels?.['karpenter.sh/capacity-type']).toBe('spot');
  });

  it('fails over to the next cheapest offering inside one create when the cheapest are stocked out', async () => {
    const [a, b, c] = await cheapestOfferings(3, 'spot');
    for (const x of [a!, b!]) {
      world.mock.faults.stockout({ machineType: x.t.name, zone: x.o.zone, provisioningModel: 'SPOT' });
    }
    const created = await provider().create(
      claims.claim([{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] }]),
    );
    expect([
      created.metadata.labels?.['node.kubernetes.io/instance-type'],
      created.metadata.labels?.['topology.kubernetes.io/zone'],
    ]).toEqual([c!.t.name, c!.o.zone]);
    for (const x of [a!, b!]) {
      expect(
        world.unavailableOfferings.reason({ capacityType: 'spot', instanceType: x.t.name, zone: x.o.zone }),
      ).toMatch(/ZONE_RESOURCE_POOL_EXHAUSTED/);
    }
    expect(world.mock.faults.calls('instances.insert')).toBe(3);
  });

  it('gives up with InsufficientCapacity after three stocked-out offerings, and leaves no VM', async () => {
    const three = await cheapestOfferings(3, 'spot');
    for (const x of three)
      world.mock.faults.stockout({ machineType: x.t.name, zone: x.o.zone, provisioningModel: 'SPOT' });
    const err = await provider()
      .create(claims.claim([{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] }]))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientCapacityError);
    expect(String((err as Error).message)).toContain('no capacity after 3 offering(s)');
    expect(await provider().list()).toEqual([]);
  });

  it('a regional CPU quota marks the type unavailable in every zone for that capacity type', async () => {
    world.mock.faults.cpuQuota(0);
    const [first] = await cheapestOfferings(1, 'on-demand');
    const err = await provider()
      .create(claims.claim([{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] }]))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientCapacityError);
    for (const zone of first!.t.offerings.map((o) => o.zone)) {
      expect(
        world.unavailableOfferings.reason({ capacityType: 'on-demand', instanceType: first!.t.name, zone }),
      ).toMatch(/QUOTA_EXCEEDED/);
    }
    expect(
      world.unavailableOfferings.isUnavailable({
        capacityType: 'spot',
        instanceType: first!.t.name,
        zone: first!.o.zone,
      }),
    ).toBe(false);
  });

  it('retries 429 on insert with growing waits, creating one VM', async () => {
    const before = world.timers.delays().length;
    world.mock.faults.failNext(2, 'tooManyRequests', 'instances.insert');
    const created = await provider().create(claims.claim());
    expect(world.timers.delays().slice(before)).toEqual([500, 1000]);
    const vms = await provider().list();
    expect(vms.map((v) => v.status?.providerID)).toEqual([created.status?.providerID]);
    expect(last(created.status?.providerID)).toBe(created.metadata.name);
  });

  it('retries 403 rateLimitExceeded on insert and gives up after five attempts, leaving no VM', async () => {
    world.mock.faults.failNext(5, 'rateLimit', 'instances.insert');
    const err = await provider()
      .create(claims.claim())
      .catch((e: unknown) => e);
    expect(String(err)).toContain('Rate Limit Exceeded');
    expect(world.mock.faults.calls('instances.insert')).toBe(5);
    expect(await provider().list()).toEqual([]);
  });

  it('a preempted spot VM and a host maintenance reach the interruption source from the zone operations', async () => {
    const created = await provider().create(only('spot'));
    const other = await provider().create(only('on-demand'));
    const [, , zone, name] =
      /^gce:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(created.status?.providerID ?? '') ?? [];
    const [, , zone2, name2] =
      /^gce:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(other.status?.providerID ?? '') ?? [];
    world.mock.compute.preempt(zone!, name!);
    world.mock.compute.hostMaintenance(zone2!, name2!);
    const source = provider().interruptions!;
    const notices = await source.receive();
    expect(notices.map((n) => [n.kind, n.providerID])).toEqual(
      expect.arrayContaining([
        ['SpotInterruption', created.status?.providerID],
        ['ScheduledMaintenance', other.status?.providerID],
      ]),
    );
    expect(notices).toHaveLength(2);
    const spot = notices.find((n) => n.kind === 'SpotInterruption')!;
    expect(spot.offering).toEqual({
      capacityType: 'spot',
      instanceType: created.metadata.labels?.['node.kubernetes.io/instance-type'],
      zone,
    });
    // The provider marks the preempted offering itself: its NodeClaim may already be gone.
    expect(world.unavailableOfferings.reason(spot.offering!)).toMatch(/^preempted/);
    for (const n of notices) await source.acknowledge(n);
    // The next receive waits the 10 s poll interval on the injected timers (and stops on abort).
    const ac = new AbortController();
    const again = source.receive(ac.signal);
    expect(world.timers.delays().at(-1)).toBe(10_000);
    ac.abort();
    await expect(again).rejects.toBeDefined();
  });
});
