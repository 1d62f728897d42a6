import { ComputeManagementClient, type VirtualMachine } from '@azure/arm-compute';
import { NetworkManagementClient } from '@azure/arm-network';
import {
  createDefaultHttpClient,
  createEmptyPipeline,
  createHttpHeaders,
  createPipelineRequest,
  isRestError,
  RestError,
} from '@azure/core-rest-pipeline';
import { NodeImageGalleries } from '@nodewright/azure';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type AzureMock, startAzureMock } from './azure-mock.js';
import { SeedNodeImageVersions } from './seed/gallery-images.js';

// The real @azure/arm-compute and @azure/arm-network clients, unmodified but for endpoint, TLS
// trust and a token credential, against the mock on loopback.
let mock: AzureMock;
let compute: ComputeManagementClient;
let network: NetworkManagementClient;
const poll = { updateIntervalInMs: 5 };
const TestSshKey = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBvH3xhQ0m6oZbqF8T7yQk2pY4m0v1a9qWcJ8rN5sT2L test';

beforeAll(async () => {
  mock = await startAzureMock({ pollsPerOperation: 2, skuPageSize: 7, pricePageSize: 25 });
  const options = {
    endpoint: mock.endpoint,
    agent: mock.agent,
    retryOptions: { maxRetries: 3, retryDelayInMs: 10, maxRetryDelayInMs: 50 },
  };
  compute = new ComputeManagementClient(mock.credential, mock.subscriptionId, options);
  network = new NetworkManagementClient(mock.credential, mock.subscriptionId, options);
});
afterAll(async () => mock.close());
beforeEach(() => mock.faults.reset());

const rg = () => mock.resourceGroup;
const subnet = () =>
  `/subscriptions/${mock.subscriptionId}/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/vnet/subnets/nodes`;

async function nic(name: string) {
  return network.networkInterfaces
    .createOrUpdate(
      rg(),
      name,
      {
        location: mock.location,
        tags: { 'karpenter.azure.com_cluster': 'c1' },
        ipConfigurations: [{ name: 'ipconfig1', subnet: { id: subnet() }, primary: true }],
        enableAcceleratedNetworking: true,
      },
      poll,
    )
    .pollUntilDone();
}

function vmBody(nicId: string, extra: Partial<VirtualMachine> = {}): VirtualMachine {
  return {
    location: mock.location,
    zones: ['2'],
    tags: { 'karpenter.sh_nodepool': 'default' },
    hardwareProfile: { vmSize: 'Standard_D2s_v5' },
    storageProfile: {
      imageReference: {
        publisher: 'Canonical',
        offer: 'ubuntu-24_04-lts',
        sku: 'server',
        version: 'latest',
      },
      osDisk: { createOption: 'FromImage', diskSizeGB: 128, deleteOption: 'Delete' },
    },
    osProfile: {
      computerName: 'aks-node',
      adminUsername: 'azureuser',
      customData: Buffer.from('#cloud-config\n').toString('base64'),
      linuxConfiguration: {
        disablePasswordAuthentication: true,
        ssh: { publicKeys: [{ path: '/home/azureuser/.ssh/authorized_keys', keyData: TestSshKey }] },
      },
    },
    networkProfile: { networkInterfaces: [{ id: nicId, primary: true, deleteOption: 'Delete' }] },
    ...extra,
  };
}

describe('Resource SKUs', () => {
  test('the list pages with nextLink and carries capabilities, zones and restrictions', async () => {
    mock.restrictSku('Standard_E2s_v5', ['3']);
    const skus = [];
    for await (const sku of compute.resourceSkus.list({ filter: `location eq '${mock.location}'` }))
      skus.push(sku);
    expect(skus.length).toBe(mock.skus().length);
    expect(skus.length).toBeGreaterThan(7 * 3);
    const d2 = skus.find((s) => s.name === 'Standard_D2s_v5')!;
    expect(d2.resourceType).toBe('virtualMachines');
    expect(d2.family).toBe('standardDSv5Family');
    expect(d2.locationInfo?.[0]).toMatchObject({ location: mock.location, zones: ['1', '2', '3'] });
    expect(d2.capabilities).toContainEqual({ name: 'vCPUs', value: '2' });
    expect(d2.capabilities).toContainEqual({ name: 'LowPriorityCapable', value: 'True' });
    const e2 = skus.find((s) => s.name === 'Standard_E2s_v5')!;
    expect(e2.restrictions?.[0]).toMatchObject({
      type: 'Zone',
      reasonCode: 'NotAvailableForSubscription',
      restrictionInfo: { zones: ['3'] },
    });
    expect(skus.some((s) => s.resourceType === 'disks')).toBe(true);
  });

  test('a filter ARM does not accept is a 400 with an ARM error body', async () => {
    const error = await (async () => {
      for await (const _ of compute.resourceSkus.list({ filter: "name eq 'x'" })) void _;
    })().catch((e: unknown) => e);
    expect(isRestError(error)).toBe(true);
    expect(error).toMatchObject({ statusCode: 400, code: 'InvalidFilter' });
  });
});

describe('network interfaces and virtual machines', () => {
  test('a Linux VM with password login disabled and no SSH key is refused, as ARM does', async () => {
    const made = await nic('vm-nokey-nic');
    const body = vmBody(made.id!);
    body.osProfile = { ...body.osProfile, linuxConfiguration: { disablePasswordAuthentication: true } };
    await expect(
      compute.virtualMachines.createOrUpdate(rg(), 'vm-nokey', body, poll).pollUntilDone(),
    ).rejects.toMatchObject({ code: 'InvalidParameter', statusCode: 400 });
    expect(mock.state.vms.size).toBe(0);
  });

  test('NIC then VM: both long-running operations are polled to their end; delete takes NIC and disk', async () => {
    const polls = mock.operations.polls;
    const made = await nic('vm-a-nic');
    expect(made.provisioningState).toBe('Succeeded');
    expect(made.ipConfigurations?.[0]?.privateIPAddress).toMatch(/^10\.224\./);
    const vm = await compute.virtualMachines
      .createOrUpdate(rg(), 'vm-a', vmBody(made.id!), poll)
      .pollUntilDone();
    expect(mock.operations.polls - polls).toBeGreaterThanOrEqual(6);
    expect(vm).toMatchObject({
      name: 'vm-a',
      provisioningState: 'Succeeded',
      zones: ['2'],
      hardwareProfile: { vmSize: 'Standard_D2s_v5' },
      tags: { 'karpenter.sh_nodepool': 'default' },
    });
    expect(mock.state.customData.get('vm-a')).toBe('#cloud-config\n');
    const got = await compute.virtualMachines.get(rg(), 'vm-a');
    expect(got.storageProfile?.osDisk?.managedDisk?.id).toContain('/disks/vm-a_OsDisk_1_');
    const listed = [];
    for await (const v of compute.virtualMachines.list(rg())) listed.push(v.name);
    expect(listed).toContain('vm-a');
    const disks = [];
    for await (const d of compute.disks.listByResourceGroup(rg())) disks.push(d.name);
    expect(disks).toHaveLength(1);

    await compute.virtualMachines.delete(rg(), 'vm-a', poll).pollUntilDone();
    await expect(compute.virtualMachines.get(rg(), 'vm-a')).rejects.toMatchObject({
      statusCode: 404,
      code: 'ResourceNotFound',
    });
    await expect(network.networkInterfaces.get(rg(), 'vm-a-nic')).rejects.toMatchObject({
      statusCode: 404,
    });
    const left = [];
    for await (const d of compute.disks.listByResourceGroup(rg())) left.push(d.name);
    expect(left).toEqual([]);
    // Deleting what is gone is not an error (ARM answers 204).
    await compute.virtualMachines.delete(rg(), 'vm-a', poll).pollUntilDone();
  });

  test('a NIC is deleted on its own once no VM uses it', async () => {
    await nic('lonely-nic');
    await network.networkInterfaces.delete(rg(), 'lonely-nic', poll).pollUntilDone();
    await expect(network.networkInterfaces.get(rg(), 'lonely-nic')).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  test('a Spot VM carries priority, eviction policy and max price', async () => {
    const n = await nic('spot-nic');
    const vm = await compute.virtualMachines
      .createOrUpdate(
        rg(),
        'spot-vm',
        vmBody(n.id!, { priority: 'Spot', evictionPolicy: 'Delete', billingProfile: { maxPrice: -1 } }),
        poll,
      )
      .pollUntilDone();
    expect(vm).toMatchObject({
      priority: 'Spot',
      evictionPolicy: 'Delete',
      billingProfile: { maxPrice: -1 },
    });
    mock.evict('spot-vm');
    expect(mock.state.evicted).toContain('spot-vm');
    await expect(compute.virtualMachines.get(rg(), 'spot-vm')).rejects.toMatchObject({ statusCode: 404 });
  });

  test('an allocation failure surfaces from the polled operation with its ARM code', async () => {
    mock.faults.failAllocation({ size: 'Standard_D4s_v5', zone: '1' }, 'ZonalAllocationFailed');
    const n = await nic('ice-nic');
    const error = await compute.virtualMachines
      .createOrUpdate(
        rg(),
        'ice-vm',
        vmBody(n.id!, { zones: ['1'], hardwareProfile: { vmSize: 'Standard_D4s_v5' } }),
        poll,
      )
      .pollUntilDone()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(errorCode(error)).toBe('ZonalAllocationFailed');
    const failed = await compute.virtualMachines.get(rg(), 'ice-vm');
    expect(failed.provisioningState).toBe('Failed');
    await compute.virtualMachines.delete(rg(), 'ice-vm', poll).pollUntilDone();
    await network.networkInterfaces.delete(rg(), 'ice-nic', poll).pollUntilDone();
  });

  test('a quota error is a synchronous 409 OperationNotAllowed', async () => {
    mock.faults.limitSpotCores(1);
    const n = await nic('quota-nic');
    const error = await compute.virtualMachines
      .createOrUpdate(
        rg(),
        'quota-vm',
        vmBody(n.id!, { priority: 'Spot', evictionPolicy: 'Delete', billingProfile: { maxPrice: -1 } }),
        poll,
      )
      .pollUntilDone()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 409, code: 'OperationNotAllowed' });
    expect(String((error as Error).message)).toContain('LowPriorityCores');
    await network.networkInterfaces.delete(rg(), 'quota-nic', poll).pollUntilDone();
  });
});

describe('throttling and server errors', () => {
  test('429 with Retry-After is waited out by the SDK and then succeeds', async () => {
    const n = await nic('throttle-nic');
    mock.faults.throttleNext(1, 1);
    const started = Date.now();
    const got = await network.networkInterfaces.get(rg(), 'throttle-nic');
    expect(got.id).toBe(n.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    await network.networkInterfaces.delete(rg(), 'throttle-nic', poll).pollUntilDone();
  });

  test('a 503 is retried; past the retries it reaches the caller with its ARM code', async () => {
    mock.faults.failNext(2, 503);
    const skus = [];
    for await (const s of compute.resourceSkus.list()) skus.push(s);
    expect(skus.length).toBe(mock.skus().length);
    mock.faults.failNext(10, 500);
    await expect(compute.virtualMachines.get(rg(), 'nothing')).rejects.toMatchObject({
      statusCode: 500,
      code: 'InternalServerError',
    });
  });

  test('a request without a bearer token is refused with AuthenticationFailed', async () => {
    const pipeline = createEmptyPipeline();
    const response = await pipeline.sendRequest(
      createDefaultHttpClient(),
      request(
        `${mock.endpoint}/subscriptions/${mock.subscriptionId}/providers/Microsoft.Compute/skus?api-version=2021-07-01`,
      ),
    );
    expect(response.status).toBe(401);
    expect(JSON.parse(response.bodyAsText ?? '{}')).toMatchObject({
      error: { code: 'AuthenticationFailed' },
    });
  });
});

describe('Retail Prices', () => {
  test('pages with NextPageLink through a filter on region and size', async () => {
    const client = createDefaultHttpClient();
    const pipeline = createEmptyPipeline();
    let url: string | null =
      `${mock.endpoint}/api/retail/prices?api-version=2023-01-01-preview&$filter=${encodeURIComponent(
        `serviceName eq 'Virtual Machines' and armRegionName eq '${mock.location}'`,
      )}`;
    const items: { armSkuName: string; type: string; skuName: string; productName: string }[] = [];
    let pages = 0;
    while (url !== null) {
      const response = await pipeline.sendRequest(client, request(url));
      if (response.status !== 200) throw new RestError(`status ${response.status}`);
      const body = JSON.parse(response.bodyAsText ?? '{}') as {
        Items: typeof items;
        NextPageLink: string | null;
      };
      items.push(...body.Items);
      url = body.NextPageLink;
      pages++;
    }
    expect(pages).toBeGreaterThan(2);
    const d2 = items.filter((i) => i.armSkuName === 'Standard_D2s_v5');
    expect(d2.map((i) => i.skuName).sort()).toEqual([
      'D2s v5',
      'D2s v5',
      'D2s v5',
      'D2s v5 Low Priority',
      'D2s v5 Spot',
      'D2s v5 Spot',
    ]);
  });
});

/** A GET through the mock's TLS trust (createPipelineRequest does not copy an `agent` option). */
function request(url: string, headers: Record<string, string> = {}) {
  const req = createPipelineRequest({ url, headers: createHttpHeaders(headers) });
  req.agent = mock.agent;
  return req;
}

/**
 * The ARM code of a failed long-running operation: core-lro throws a plain Error whose message
 * is "The long-running operation has failed. <code>. <message>", with no `code` property.
 */
function errorCode(error: unknown): string | undefined {
  return /^The long-running operation has failed\. (\w+)\./.exec((error as Error).message)?.[1];
}

describe('community gallery image versions', () => {
  const ubuntu = NodeImageGalleries.Ubuntu;
  const list = async (gallery: string, image: string) => {
    const out = [];
    for await (const v of compute.communityGalleryImageVersions.list(mock.location, gallery, image))
      out.push(v);
    return out;
  };

  test('lists every version of an AKS image definition through nextLink pages, then a published one', async () => {
    const versions = await list(ubuntu, '2204gen2containerd');
    expect(versions.map((v) => v.name)).toEqual(SeedNodeImageVersions.map((v) => v.name));
    expect(versions[2]).toMatchObject({
      uniqueId: `/CommunityGalleries/${ubuntu}/Images/2204gen2containerd/Versions/202511.07.0`,
      publishedDate: new Date('2025-11-10T00:00:00Z'),
      excludeFromLatest: false,
    });
    mock.publishNodeImage({ name: '202512.02.0', publishedDate: '2025-12-05T00:00:00Z' });
    expect((await list(ubuntu, '2404gen2arm64containerd')).map((v) => v.name)).toContain('202512.02.0');
  });

  test('an image definition the gallery lacks is a 404; an api-version the gallery API lacks a 400', async () => {
    await expect(list(ubuntu, 'no-such-image')).rejects.toMatchObject({
      statusCode: 404,
      code: 'GalleryImageNotFound',
    });
    const response = await createEmptyPipeline().sendRequest(
      createDefaultHttpClient(),
      request(
        `${mock.endpoint}/subscriptions/${mock.subscriptionId}/providers/Microsoft.Compute/locations/${mock.location}/communityGalleries/${ubuntu}/images/2204gen2containerd/versions?api-version=2021-07-01`,
        { authorization: 'Bearer mock-token' },
      ),
    );
    expect(response.status).toBe(400);
    expect(JSON.parse(response.bodyAsText ?? '{}')).toMatchObject({
      error: { code: 'NoRegisteredProviderFound' },
    });
  });

  test('a VM from an image version the gallery does not publish is refused before anything is made', async () => {
    const made = await nic('vm-noimage-nic');
    const body = vmBody(made.id!, {
      storageProfile: {
        imageReference: {
          communityGalleryImageId: `/CommunityGalleries/${ubuntu}/images/2204gen2containerd/versions/201901.01.0`,
        },
        osDisk: { createOption: 'FromImage', deleteOption: 'Delete' },
      },
    });
    await expect(
      compute.virtualMachines.createOrUpdate(rg(), 'vm-noimage', body, poll).pollUntilDone(),
    ).rejects.toMatchObject({ code: 'GalleryImageNotFound', statusCode: 404 });
    expect(mock.state.vms.has(`${rg().toLowerCase()}/vm-noimage`)).toBe(false);
  });
});
