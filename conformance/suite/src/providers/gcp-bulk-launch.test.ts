import { InstancesClient } from '@google-cloud/compute';
import { InsufficientCapacityError } from '@nodewright/core/cloudprovider';
import { flexibleGroup, launchCandidates, MaxFlexibleTypes } from '@nodewright/gcp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractClaims } from '../provider-contract/contract-claims.js';
import { type GcpWorld, startGcpWorld } from './gcp-harness.js';

// The GCP provider's default launch, `launchMode=bulkInsert`, through the real
// @google-cloud/compute clients against the GCE mock: one instances.bulkInsert offers the
// cheapest offering's zone its next cheapest machine types as an instance flexibility policy, so
// a stockout of the first choice is absorbed by the cloud in the same call.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let world: GcpWorld;
let claims: ContractClaims;
let sdk: InstancesClient;

beforeEach(async () => {
  world = await startGcpWorld();
  claims = new ContractClaims(world.nodePool);
  sdk = new InstancesClient(world.mock.clientOptions);
});
afterEach(async () => {
  await sdk.close();
  await world.instance.close?.();
  await world.mock.close();
});

const provider = () => world.instance.cloudProvider;
const spot = () => claims.claim([{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] }]);

/** The types the provider's first bulkInsert for a spot claim offers, cheapest first. */
async function firstGroup() {
  const types = await provider().getInstanceTypes(world.nodePool);
  const group = flexibleGroup(launchCandidates(spot(), types));
  if (group === undefined) throw new Error('no launchable spot offering');
  return group;
}

function stockOut(zone: string, names: readonly string[]) {
  for (const machineType of names)
    world.mock.faults.stockout({ machineType, zone, provisioningModel: 'SPOT' });
}

describe('gcp launch with bulkInsert (SDK against the GCE mock)', () => {
  it('launches on the next cheapest type in one call when the first choice is stocked out', async () => {
    const group = await firstGroup();
    const names = group.candidates.map((c) => c.instanceType.name);
    expect(names.length).toBeGreaterThan(1);
    expect(names.length).toBeLessThanOrEqual(MaxFlexibleTypes);
    // Cheapest first: the cloud honours the ranks in that order.
    const prices = group.candidates.map((c) => c.offering.price);
    expect([...prices].sort((a, b) => a - b)).toEqual(prices);
    stockOut(group.zone, [names[0]!]);

    const claim = spot();
    claim.spec.taints = [{ key: 'example.com/dedicated', value: 'web', effect: 'NoSchedule' }];
    const created = await provider().create(claim);
    expect(world.mock.faults.calls('instances.bulkInsert')).toBe(1);
    expect(world.mock.faults.calls('instances.insert')).toBe(0);
    expect(created.metadata.labels?.['node.kubernetes.io/instance-type']).toBe(names[1]);
    expect(created.metadata.labels?.['topology.kubernetes.io/zone']).toBe(group.zone);
    expect(created.metadata.labels?.['karpenter.sh/capacity-type']).toBe('spot');

    const [vm] = await sdk.get({
      project: world.mock.project,
      zone: group.zone,
      instance: claim.metadata.name!,
    });
    expect(vm.machineType?.split('/').pop()).toBe(names[1]);
    expect(vm.scheduling).toMatchObject({ provisioningModel: 'SPOT', instanceTerminationAction: 'DELETE' });
    expect(vm.labels).toMatchObject({
      'goog-k8s-cluster-name': `contract-${world.suffix}`,
      'karpenter-sh-nodeclaim': claim.metadata.name,
    });
    const meta = Object.fromEntries((vm.metadata?.items ?? []).map((i) => [i.key, i.value]));
    expect(meta['kube-taints']).toBe('example.com/dedicated=web:NoSchedule');
    expect(meta['kube-labels']).toContain('karpenter.sh/capacity-type=spot');
    // The type is the cloud's choice, so the kubelet is not told one before it is made.
    expect(meta['kube-labels']).not.toContain('node.kubernetes.io/instance-type=');
    expect(meta['nodewright-image']).toMatch(/^projects\/cos-cloud\/global\/images\/cos-stable-/);
    // The cloud absorbed the stockout: nothing was learnt, nothing marked.
    expect(
      world.unavailableOfferings.isUnavailable({
        capacityType: 'spot',
        instanceType: names[0]!,
        zone: group.zone,
      }),
    ).toBe(false);
  });

  it('a zone with none of the offered types: all marked unavailable, the next zone tried', async () => {
    const group = await firstGroup();
    const names = group.candidates.map((c) => c.instanceType.name);
    stockOut(group.zone, names);
    const created = await provider().create(spot());
    expect(created.metadata.labels?.['topology.kubernetes.io/zone']).not.toBe(group.zone);
    expect(world.mock.faults.calls('instances.bulkInsert')).toBe(2);
    for (const instanceType of names) {
      expect(
        world.unavailableOfferings.reason({ capacityType: 'spot', instanceType, zone: group.zone }),
      ).toMatch(/ZONE_RESOURCE_POOL_EXHAUSTED/);
    }
  });

  it('gives up with InsufficientCapacity after three refused requests, leaving no VM', async () => {
    const types = await provider().getInstanceTypes(world.nodePool);
    for (const t of types) for (const o of t.offerings) stockOut(o.zone, [t.name]);
    const err = await provider()
      .create(spot())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientCapacityError);
    expect(String((err as Error).message)).toContain('no capacity after 3 offering(s)');
    expect(world.mock.faults.calls('instances.bulkInsert')).toBe(3);
    expect(await provider().list()).toEqual([]);
  });

  it('retries a throttled bulkInsert with the same growing waits as insert', async () => {
    const before = world.timers.delays().length;
    world.mock.faults.failNext(2, 'tooManyRequests', 'instances.bulkInsert');
    const created = await provider().create(spot());
    expect(world.timers.delays().slice(before)).toEqual([500, 1000]);
    expect((await provider().list()).map((v) => v.status?.providerID)).toEqual([created.status?.providerID]);
  });

  it('records the kubernetesVersion setting on the VM, which its drift check then reads', async () => {
    const versioned = await startGcpWorld({ settings: { kubernetesVersion: '1.33.2' } });
    const client = new InstancesClient(versioned.mock.clientOptions);
    try {
      const claim = new ContractClaims(versioned.nodePool).claim();
      const created = await versioned.instance.cloudProvider.create(claim);
      const zone = created.metadata.labels?.['topology.kubernetes.io/zone'] ?? '';
      const [vm] = await client.get({
        project: versioned.mock.project,
        zone,
        instance: claim.metadata.name!,
      });
      const meta = Object.fromEntries((vm.metadata?.items ?? []).map((i) => [i.key, i.value]));
      expect(meta['nodewright-kubernetes-version']).toBe('1.33.2');
      expect(await versioned.instance.cloudProvider.isDrifted(created)).toBeUndefined();
    } finally {
      await client.close();
      await versioned.instance.close?.();
      await versioned.mock.close();
    }
  });
});
