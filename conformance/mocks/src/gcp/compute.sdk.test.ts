import {
  InstancesClient,
  MachineTypesClient,
  type protos,
  ZoneOperationsClient,
} from '@google-cloud/compute';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type GcpMock, startGcpMock } from './gcp-mock.js';

// The real @google-cloud/compute clients (REST transport) against the mock on loopback.
let mock: GcpMock;
let instances: InstancesClient;
let machineTypes: MachineTypesClient;
let operations: ZoneOperationsClient;
const project = 'my-project';
const zone = 'us-central1-a';

beforeAll(async () => {
  mock = await startGcpMock({ project });
  instances = new InstancesClient(mock.clientOptions);
  machineTypes = new MachineTypesClient(mock.clientOptions);
  operations = new ZoneOperationsClient(mock.clientOptions);
});
afterAll(async () => {
  await Promise.all([instances.close(), machineTypes.close(), operations.close()]);
  await mock.close();
});
beforeEach(() => mock.faults.reset());

const vm = (name: string, machineType = 'n2-standard-2', extra: Record<string, unknown> = {}) => ({
  name,
  machineType: `zones/${zone}/machineTypes/${machineType}`,
  labels: { 'karpenter-sh-nodepool': 'default', 'goog-k8s-cluster-name': 'c1' },
  disks: [
    {
      boot: true,
      autoDelete: true,
      initializeParams: {
        sourceImage: 'projects/cos-cloud/global/images/family/cos-stable',
        diskSizeGb: '100',
      },
    },
  ],
  networkInterfaces: [{ subnetwork: 'regions/us-central1/subnetworks/nodes' }],
  ...extra,
});

async function insertAndWait(resource: Record<string, unknown>, z = zone) {
  const [op] = await instances.insert({ project, zone: z, instanceResource: resource });
  const name = op.latestResponse.name as string;
  const [done] = await operations.wait({ project, zone: z, operation: name });
  return { first: op.latestResponse as protos.google.cloud.compute.v1.IOperation, done };
}

describe('machine types', () => {
  test('the aggregated list pages through every zone, with real facts', async () => {
    const seen = new Map<string, Record<string, unknown>>();
    const zones = new Set<string>();
    for await (const [key, scoped] of machineTypes.aggregatedListAsync({ project, maxResults: 100 })) {
      if ((scoped.machineTypes ?? []).length > 0) zones.add(key);
      for (const t of scoped.machineTypes ?? [])
        seen.set(`${t.zone}/${t.name}`, t as Record<string, unknown>);
      expect(key).toMatch(/^zones\//);
    }
    expect(zones.size).toBe(7);
    expect(mock.faults.calls('machineTypes.aggregatedList')).toBeGreaterThan(5);
    expect(seen.get('us-central1-a/n2-standard-8')).toMatchObject({
      guestCpus: 8,
      memoryMb: 32768,
      architecture: 'X86_64',
    });
    expect(seen.get('us-central1-a/e2-medium')).toMatchObject({
      guestCpus: 2,
      memoryMb: 4096,
      isSharedCpu: true,
    });
    expect(seen.get('us-central1-b/g2-standard-24')).toMatchObject({
      accelerators: [{ guestAcceleratorType: 'nvidia-l4', guestAcceleratorCount: 2 }],
    });
    expect(seen.get('us-central1-b/t2a-standard-4')).toMatchObject({ architecture: 'ARM64' });
    expect(seen.has('us-central1-c/t2a-standard-4')).toBe(false);
  });
});

describe('instances', () => {
  test('insert returns a PENDING operation that wait reports DONE; the VM is then RUNNING', async () => {
    const { first, done } = await insertAndWait(vm('node-a'));
    expect(first.status).toBe('PENDING');
    expect(first.operationType).toBe('insert');
    expect(done.status).toBe('DONE');
    expect(done.error).toBeFalsy();
    const [got] = await instances.get({ project, zone, instance: 'node-a' });
    expect(got).toMatchObject({
      name: 'node-a',
      status: 'RUNNING',
      labels: { 'karpenter-sh-nodepool': 'default' },
    });
    expect(got.machineType).toMatch(/\/zones\/us-central1-a\/machineTypes\/n2-standard-2$/);
    expect(got.networkInterfaces?.[0]?.networkIP).toMatch(/^10\.128\./);
  });

  test('list filters by label and pages', async () => {
    await insertAndWait(vm('node-b', 'e2-standard-2', { labels: { 'karpenter-sh-nodepool': 'other' } }));
    const all: string[] = [];
    for await (const i of instances.listAsync({
      project,
      zone,
      maxResults: 1,
      filter: 'labels.karpenter-sh-nodepool = "other"',
    }))
      all.push(i.name ?? '');
    expect(all).toEqual(['node-b']);
    const [both] = await instances.list(
      {
        project,
        zone,
        filter: '(labels.goog-k8s-cluster-name = "c1") AND (labels.karpenter-sh-nodepool:*)',
        maxResults: 500,
      },
      { autoPaginate: false },
    );
    expect(both.map((i) => i.name).sort()).toEqual(expect.arrayContaining(['node-a']));
  });

  test('errors are GCE error bodies: 404 for a missing VM, 409 for a taken name, 400 for a bad type', async () => {
    await expect(instances.get({ project, zone, instance: 'nope' })).rejects.toMatchObject({
      httpStatusCode: 404,
      message: expect.stringContaining(
        "'projects/my-project/zones/us-central1-a/instances/nope' was not found",
      ),
    });
    await expect(instances.insert({ project, zone, instanceResource: vm('node-a') })).rejects.toMatchObject({
      httpStatusCode: 409,
    });
    await expect(
      instances.insert({ project, zone, instanceResource: vm('node-x', 'n9-standard-2') }),
    ).rejects.toMatchObject({
      httpStatusCode: 400,
      message: expect.stringContaining("'n9-standard-2' does not exist"),
    });
    await expect(
      instances.insert({ project, zone, instanceResource: vm('node-y', 't2a-standard-4') }),
    ).resolves.toBeDefined();
    await expect(
      instances.insert({
        project,
        zone: 'us-central1-c',
        instanceResource: {
          ...vm('node-z', 't2a-standard-4'),
          machineType: 'zones/us-central1-c/machineTypes/t2a-standard-4',
        },
      }),
    ).rejects.toMatchObject({ httpStatusCode: 400 });
  });

  test('the same requestId returns the same operation and creates one VM', async () => {
    const a = await instances.insert({
      project,
      zone,
      requestId: '0a1b2c3d-0000-4000-8000-000000000001',
      instanceResource: vm('node-r'),
    });
    const b = await instances.insert({
      project,
      zone,
      requestId: '0a1b2c3d-0000-4000-8000-000000000001',
      instanceResource: vm('node-r'),
    });
    expect(b[0].latestResponse.name).toBe(a[0].latestResponse.name);
  });

  test('delete stops the VM, then it is gone (404)', async () => {
    await insertAndWait(vm('node-d'));
    const [op] = await instances.delete({ project, zone, instance: 'node-d' });
    await operations.wait({ project, zone, operation: op.latestResponse.name as string });
    await new Promise((r) => setTimeout(r, mock.compute.timings.stopMs + 20));
    await expect(instances.get({ project, zone, instance: 'node-d' })).rejects.toMatchObject({
      httpStatusCode: 404,
    });
    await expect(instances.delete({ project, zone, instance: 'node-d' })).rejects.toMatchObject({
      httpStatusCode: 404,
    });
  });
});

describe('faults', () => {
  test('a stocked-out pool fails the operation with ZONE_RESOURCE_POOL_EXHAUSTED and leaves no VM; the other model still launches', async () => {
    mock.faults.stockout({ machineType: 'c3-standard-4', zone, provisioningModel: 'SPOT' });
    const spot = { scheduling: { provisioningModel: 'SPOT', instanceTerminationAction: 'DELETE' } };
    const { done } = await insertAndWait(vm('node-s', 'c3-standard-4', spot));
    expect(done.status).toBe('DONE');
    expect(done.error?.errors?.[0]?.code).toBe('ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS');
    await expect(instances.get({ project, zone, instance: 'node-s' })).rejects.toMatchObject({
      httpStatusCode: 404,
    });
    const standard = await insertAndWait(vm('node-s', 'c3-standard-4'));
    expect(standard.done.error).toBeFalsy();
  });

  test('a CPU quota fails the operation with QUOTA_EXCEEDED', async () => {
    mock.faults.cpuQuota(4);
    const { done } = await insertAndWait(vm('node-q', 'n2-standard-8'));
    expect(done.error?.errors?.[0]).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      message: expect.stringContaining("Quota 'CPUS' exceeded"),
    });
  });

  test('rate limits answer 403 rateLimitExceeded, failures 500/503 (the SDK retries 503 on reads), and latency delays', async () => {
    await insertAndWait(vm('node-f'));
    mock.faults.failNext(1, 'rateLimit', 'instances.get');
    await expect(instances.get({ project, zone, instance: 'node-f' })).rejects.toMatchObject({
      httpStatusCode: 403,
      message: 'Rate Limit Exceeded',
    });
    mock.faults.failNext(1, 'tooManyRequests', 'instances.get');
    await expect(instances.get({ project, zone, instance: 'node-f' })).rejects.toMatchObject({
      httpStatusCode: 429,
    });
    mock.faults.failNext(1, 'backendError', 'instances.get');
    await expect(instances.get({ project, zone, instance: 'node-f' })).rejects.toMatchObject({
      httpStatusCode: 500,
    });
    const before = mock.faults.calls('instances.get');
    mock.faults.failNext(1, 'unavailable', 'instances.get');
    await expect(instances.get({ project, zone, instance: 'node-f' })).resolves.toBeDefined();
    expect(mock.faults.calls('instances.get') - before).toBe(2);
    mock.faults.failNext(1, 'unavailable', 'instances.insert');
    await expect(instances.insert({ project, zone, instanceResource: vm('node-g') })).rejects.toMatchObject({
      httpStatusCode: 503,
    });
    mock.faults.latency('instances.get', 150);
    const start = Date.now();
    await instances.get({ project, zone, instance: 'node-f' });
    expect(Date.now() - start).toBeGreaterThanOrEqual(140);
  });

  test('preempting a VM leaves a compute.instances.preempted operation by the system, and the VM goes', async () => {
    const spot = { scheduling: { provisioningModel: 'SPOT', instanceTerminationAction: 'DELETE' } };
    await insertAndWait(vm('node-p', 'e2-standard-4', spot));
    mock.compute.preempt(zone, 'node-p');
    const [ops] = await operations.list(
      { project, zone, filter: 'operationType = "compute.instances.preempted"' },
      { autoPaginate: false },
    );
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({
      status: 'DONE',
      user: 'system',
      targetLink: expect.stringMatching(/\/instances\/node-p$/),
    });
    const [got] = await instances.get({ project, zone, instance: 'node-p' });
    expect(got.status).toBe('STOPPING');
  });

  test('bulkInsert with instance flexibility takes the first selection with capacity, or fails below minCount', async () => {
    mock.faults.stockout({ machineType: 'n2-standard-4', zone, provisioningModel: 'STANDARD' });
    const body = {
      count: 2,
      minCount: 2,
      namePattern: 'bulk-##',
      instanceProperties: {
        machineType: 'n2-standard-4',
        labels: { 'karpenter-sh-nodepool': 'bulk' },
        disks: vm('x').disks,
      },
      instanceFlexibilityPolicy: {
        instanceSelections: {
          a: { machineTypes: ['n2-standard-4'], rank: 0 },
          b: { machineTypes: ['n2d-standard-4'], rank: 1 },
        },
      },
    };
    const [op] = await instances.bulkInsert({ project, zone, bulkInsertInstanceResourceResource: body });
    const [done] = await operations.wait({ project, zone, operation: op.latestResponse.name as string });
    expect(done.error).toBeFalsy();
    const [bulk] = await instances.list(
      { project, zone, filter: 'labels.karpenter-sh-nodepool = "bulk"' },
      { autoPaginate: false },
    );
    expect(bulk.map((i) => [i.name, i.machineType?.split('/').pop()])).toEqual([
      ['bulk-01', 'n2d-standard-4'],
      ['bulk-02', 'n2d-standard-4'],
    ]);
    mock.faults.stockout({ machineType: 'n2d-standard-4', zone, provisioningModel: 'STANDARD' });
    const [failed] = await instances.bulkInsert({
      project,
      zone,
      bulkInsertInstanceResourceResource: { ...body, namePattern: 'bulkf-##' },
    });
    const [fdone] = await operations.wait({ project, zone, operation: failed.latestResponse.name as string });
    expect(fdone.error?.errors?.[0]?.code).toBe('ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS');
  });
});

describe('billing catalog', () => {
  test('pages Compute Engine SKUs with real prices', async () => {
    const skus: {
      description: string;
      pricingInfo: {
        pricingExpression: { tieredRates: { unitPrice: { units: string; nanos: number } }[] };
      }[];
    }[] = [];
    let token = '';
    let pages = 0;
    do {
      const res = await fetch(
        `${mock.baseUrl}/v1/services/6F81-5844-456A/skus?pageSize=10${token ? `&pageToken=${token}` : ''}`,
      );
      const body = (await res.json()) as { skus: typeof skus; nextPageToken: string };
      skus.push(...body.skus);
      token = body.nextPageToken;
      pages++;
    } while (token !== '');
    expect(pages).toBeGreaterThan(3);
    const n2Core = skus.find((s) => s.description === 'N2 Instance Core running in Americas');
    expect(n2Core?.pricingInfo[0]?.pricingExpression.tieredRates[0]?.unitPrice).toEqual({
      currencyCode: 'USD',
      units: '0',
      nanos: 31611000,
    });
    const res = await fetch(`${mock.baseUrl}/v1/services/nope/skus`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 404, errors: [{ reason: 'notFound' }] } });
  });
});
