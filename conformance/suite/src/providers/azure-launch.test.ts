import { AKSNodeClassAnnotations, AKSNodeClasses, NodeImageGalleries } from '@nodewright/azure';
import { CapacityTypes, Labels } from '@nodewright/core/apis';
import { isCreateError, isInsufficientCapacity } from '@nodewright/core/cloudprovider';
import type { MergePatch } from '@nodewright/core/kube';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ContractClaims } from '../provider-contract/contract-claims.js';
import { type AzureWorld, startAzureWorld } from './azure-harness.js';

// What the Azure launcher does beyond the contract, seen on the ARM mock through the real SDK:
// failover across offerings inside one create, the scope a refusal marks, nothing left behind.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let world: AzureWorld;
let claims: ContractClaims;

beforeEach(async () => {
  world = await startAzureWorld();
  claims = new ContractClaims(world.nodePool);
});
afterEach(async () => {
  await world.instance.close?.();
  await world.mock.close();
});

const onDemandD2 = [
  { key: Labels.InstanceType, operator: 'In' as const, values: ['Standard_D2s_v5', 'Standard_D2as_v5'] },
  { key: Labels.CapacityType, operator: 'In' as const, values: [CapacityTypes.OnDemand] },
];

describe('the Azure launcher on the ARM mock', () => {
  it('fails over to the next cheapest offering within one create when ARM refuses for capacity', async () => {
    // The cheapest on-demand offering of the two sizes is D2as_v5 ($0.086) in zone 1.
    world.mock.faults.failAllocation(
      { size: 'Standard_D2as_v5', zone: '1', priority: 'Regular' },
      'ZonalAllocationFailed',
    );
    const created = await world.instance.cloudProvider.create(claims.claim(onDemandD2));
    expect(created.metadata.labels?.[Labels.InstanceType]).toBe('Standard_D2as_v5');
    expect(created.metadata.labels?.[Labels.Zone]).toBe('eastus-2');
    expect(
      world.unavailableOfferings.isUnavailable({
        capacityType: 'on-demand',
        instanceType: 'Standard_D2as_v5',
        zone: 'eastus-1',
      }),
    ).toBe(true);
    // The refused VM is gone; one VM, one NIC, one disk remain.
    expect(world.mock.state.vms.size).toBe(1);
    expect(world.mock.state.nics.size).toBe(1);
    expect(world.mock.state.disks.size).toBe(1);
  });

  it('a region-wide refusal marks the size in every zone, and the next size launches', async () => {
    world.mock.faults.failAllocation({ size: 'Standard_D2as_v5', priority: 'Regular' }, 'AllocationFailed');
    const created = await world.instance.cloudProvider.create(claims.claim(onDemandD2));
    expect(created.metadata.labels?.[Labels.InstanceType]).toBe('Standard_D2s_v5');
    for (const zone of ['eastus-1', 'eastus-2', 'eastus-3']) {
      expect(
        world.unavailableOfferings.isUnavailable({
          capacityType: 'on-demand',
          instanceType: 'Standard_D2as_v5',
          zone,
        }),
      ).toBe(true);
    }
  });

  it('a Spot core quota marks every spot offering and the create falls back to on-demand', async () => {
    world.mock.faults.limitSpotCores(1);
    const created = await world.instance.cloudProvider.create(claims.claim());
    expect(created.metadata.labels?.[Labels.CapacityType]).toBe('on-demand');
    const spot = world.unavailableOfferings.entries().filter((e) => e.capacityType === 'spot');
    expect(spot.length).toBeGreaterThan(10);
    expect(spot[0]?.reason).toContain('LowPriorityCores');
  });

  it('after maxLaunchAttempts refusals: InsufficientCapacity, and the half-made launch leaves nothing', async () => {
    for (const size of ['Standard_D2s_v5', 'Standard_D2as_v5']) {
      world.mock.faults.failAllocation({ size, priority: 'Regular' }, 'ZonalAllocationFailed');
    }
    const err = await world.instance.cloudProvider.create(claims.claim(onDemandD2)).catch((e: unknown) => e);
    expect(isInsufficientCapacity(err), String(err)).toBe(true);
    expect((err as Error).message).toContain('3 launches refused for capacity');
    expect(world.mock.state.vms.size).toBe(0);
    expect(world.mock.state.nics.size).toBe(0);
    expect(world.mock.state.disks.size).toBe(0);
  });

  it('ARM failing past the retries is not InsufficientCapacity, and leaves nothing', async () => {
    world.mock.faults.failNext(20, 503);
    const err = await world.instance.cloudProvider.create(claims.claim(onDemandD2)).catch((e: unknown) => e);
    world.mock.faults.reset();
    expect(err).toBeInstanceOf(Error);
    expect(isInsufficientCapacity(err), String(err)).toBe(false);
    expect(
      isCreateError(err) ? err.conditionMessage : String((err as { statusCode?: number }).statusCode),
    ).toMatch(/503|ServiceUnavailable/);
    expect(world.mock.state.vms.size).toBe(0);
    expect(world.mock.state.nics.size).toBe(0);
  });

  it('a spot VM is Spot with eviction Delete and no price cap; custom data carries labels, taints and max pods', async () => {
    const claim = claims.claim([
      { key: Labels.InstanceType, operator: 'In', values: ['Standard_D2s_v5'] },
      { key: Labels.CapacityType, operator: 'In', values: [CapacityTypes.Spot] },
    ]);
    claim.spec.taints = [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }];
    claim.spec.startupTaints = [{ key: 'startup', effect: 'NoExecute' }];
    const created = await world.instance.cloudProvider.create(claim);
    const name = `aks-${claim.metadata.name}`;
    const vm = world.mock.state.vms.get(`${world.mock.resourceGroup.toLowerCase()}/${name}`);
    expect(vm?.properties).toMatchObject({
      priority: 'Spot',
      evictionPolicy: 'Delete',
      billingProfile: { maxPrice: -1 },
    });
    expect(vm?.tags).toMatchObject({
      'karpenter.sh_nodeclaim': claim.metadata.name,
      'karpenter.sh_nodepool': world.nodePool.metadata.name,
      'karpenter.azure.com_aksnodeclass': world.nodeClassName,
      team: 'contract',
    });
    const data = world.mock.state.customData.get(name) ?? '';
    expect(data).toContain('--register-with-taints=dedicated=batch:NoSchedule,startup:NoExecute');
    expect(data).toContain('--max-pods=250');
    expect(data).toContain(`karpenter.sh/nodepool=${world.nodePool.metadata.name}`);
    expect(data).toContain('karpenter.sh/capacity-type=spot');
    expect(created.status?.imageID).toContain('/images/2204gen2containerd/versions/202511.07.0');
  });

  it('a spot VM evicted by Azure becomes a SpotInterruption with its offering; one nodewright deletes does not', async () => {
    const spot = [
      { key: Labels.InstanceType, operator: 'In' as const, values: ['Standard_D2s_v5'] },
      { key: Labels.CapacityType, operator: 'In' as const, values: [CapacityTypes.Spot] },
    ];
    const source = world.instance.cloudProvider.interruptions!;
    const evicted = await world.instance.cloudProvider.create(claims.claim(spot));
    const deleted = await world.instance.cloudProvider.create(claims.claim(spot));
    expect(await source.receive()).toEqual([]);
    world.mock.evict(`aks-${evicted.metadata.name}`);
    await expect(world.instance.cloudProvider.delete(deleted)).resolves.toBeUndefined();
    const notices = await source.receive();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      kind: 'SpotInterruption',
      providerID: evicted.status?.providerID,
      offering: {
        capacityType: 'spot',
        instanceType: 'Standard_D2s_v5',
        zone: evicted.metadata.labels?.[Labels.Zone],
      },
    });
    expect(await source.receive()).toEqual([]);
  });

  it('stamps the Kubernetes version a node launched with, and drifts it once the cluster is upgraded', async () => {
    const created = await world.instance.cloudProvider.create(claims.claim(onDemandD2));
    expect(created.metadata.annotations?.[AKSNodeClassAnnotations.KubernetesVersion]).toBe('1.33.2');
    expect(await world.instance.cloudProvider.isDrifted(created)).toBeUndefined();
    await world.cluster.patchStatus(AKSNodeClasses, { name: world.nodeClassName }, {
      status: { kubernetesVersion: '1.34.1' },
    } as unknown as MergePatch);
    expect(await world.instance.cloudProvider.isDrifted(created)).toBe('KubernetesVersionDrift');
  });
});

describe('node images from the community gallery', () => {
  it('launches the family’s latest published version, and drifts to ImageDrift once a newer one is published', async () => {
    await world.instance.close?.();
    await world.mock.close();
    world = await startAzureWorld({ extraSettings: { imageRefresh: '1ms' } });
    claims = new ContractClaims(world.nodePool);
    const created = await world.instance.cloudProvider.create(claims.claim(onDemandD2));
    const vm = world.mock.state.vms.get(
      `${world.mock.resourceGroup.toLowerCase()}/aks-${created.metadata.name}`,
    );
    const imageId = `/CommunityGalleries/${NodeImageGalleries.Ubuntu}/images/2204gen2containerd/versions/202511.07.0`;
    expect(vm?.properties).toMatchObject({
      storageProfile: { imageReference: { communityGalleryImageId: imageId } },
    });
    expect(created.status?.imageID).toBe(imageId);
    expect(await world.instance.cloudProvider.isDrifted(created)).toBeUndefined();

    world.mock.publishNodeImage({ name: '202512.02.0', publishedDate: new Date().toISOString() });
    await world.resolveStatus();
    const status = (await world.cluster.get(AKSNodeClasses, { name: world.nodeClassName })).status;
    expect(status?.images?.map((i) => i.id.split('/versions/')[1])).toEqual(['202512.02.0', '202512.02.0']);
    expect(await world.instance.cloudProvider.isDrifted(created)).toBe('ImageDrift');
  });

  it('a pinned imageVersion the gallery does not publish leaves the NodeClass not Ready, and create says why', async () => {
    await world.cluster.patch(AKSNodeClasses, { name: world.nodeClassName }, {
      spec: { imageVersion: '201901.01.0' },
    } as unknown as MergePatch);
    await world.resolveStatus();
    const error = await world.instance.cloudProvider
      .create(claims.claim(onDemandD2))
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/ImagesNotReady: image version 201901\.01\.0 is not published/);
    expect(world.mock.state.vms.size).toBe(0);
  });
});
