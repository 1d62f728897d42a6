import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  KubeHttpClient,
  KWOK_NODE_ANNOTATION,
  KWOK_NODE_ANNOTATION_VALUE,
  loadKubeconfig,
} from './src/index.js';

// Exercises the cluster the globalSetup provides (ours, or NODEWRIGHT_KUBECONFIG's) with
// plain REST calls: the pieces the autoscaler's end-to-end tests depend on.

interface Condition {
  type: string;
  status: string;
}
interface NodeObject {
  metadata: { name: string };
  status?: {
    conditions?: Condition[];
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
  };
}
interface PodObject {
  spec: { nodeName?: string };
  status?: { phase?: string; podIP?: string; conditions?: Condition[] };
}

const cluster = inject('nodewrightCluster');
const suffix = randomUUID().slice(0, 8);
const nodeName = `nw-smoke-${suffix}`;
const selector = { 'nodewright.dev/smoke': suffix };
const crdGroup = 'smoke.nodewright.dev';
const crdPlural = `widgets${suffix}`;
const crdName = `${crdPlural}.${crdGroup}`;
const poll = { timeout: 60_000, interval: 250 };

let client: KubeHttpClient;

const condition = (conditions: Condition[] | undefined, type: string): string | undefined =>
  conditions?.find((c) => c.type === type)?.status;

beforeAll(async () => {
  client = new KubeHttpClient(await loadKubeconfig(cluster.kubeconfigPath));
});

afterAll(async () => {
  if (!client) return;
  await client.delete(`/api/v1/namespaces/default/pods/smoke-${suffix}`);
  await client.delete(`/apis/batch/v1/namespaces/default/jobs/smoke-${suffix}?propagationPolicy=Background`);
  await client.delete(`/api/v1/nodes/${nodeName}`);
  await client.delete(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`);
  client.close();
});

describe('the conformance cluster', () => {
  it('answers on the kubeconfig it was given, as a ready Kubernetes API server', async () => {
    expect(client.server).toBe(cluster.server);
    const ready = await client.get('/readyz');
    expect(ready.status).toBe(200);
    const version = await client.get<{ major: string; gitVersion: string }>('/version');
    expect(version.status).toBe(200);
    expect(version.body.major).toBe('1');
    expect(version.body.gitVersion).toMatch(/^v1\.\d+\.\d+/);
    // The admin identity is a cluster administrator (system:masters).
    const review = await client.post<{ status: { allowed: boolean } }>(
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      { spec: { resourceAttributes: { verb: '*', group: '*', resource: '*' } } },
    );
    expect(review.status).toBe(201);
    expect(review.body.status.allowed).toBe(true);
  });

  it('turns a Node annotated for kwok Ready, keeping the capacity its creator set, with a Lease', async () => {
    const created = await client.post<NodeObject>('/api/v1/nodes', {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: nodeName,
        annotations: { [KWOK_NODE_ANNOTATION]: KWOK_NODE_ANNOTATION_VALUE },
        labels: { ...selector, 'kubernetes.io/hostname': nodeName, 'kubernetes.io/arch': 'arm64' },
      },
      status: { capacity: { cpu: '3', memory: '7Gi', pods: '11' } },
    });
    expect(created.status).toBe(201);

    await expect
      .poll(
        async () =>
          condition(
            (await client.get<NodeObject>(`/api/v1/nodes/${nodeName}`)).body.status?.conditions,
            'Ready',
          ),
        poll,
      )
      .toBe('True');
    const node = (
      await client.get<NodeObject & { status: { nodeInfo: { architecture: string } } }>(
        `/api/v1/nodes/${nodeName}`,
      )
    ).body;
    expect(node.status.allocatable).toMatchObject({ cpu: '3', memory: '7Gi', pods: '11' });
    expect(node.status.nodeInfo.architecture).toBe('arm64');
    await expect
      .poll(
        async () =>
          (await client.get(`/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${nodeName}`))
            .status,
        poll,
      )
      .toBe(200);
  });

  it('schedules a Pod onto that node and kwok reports it Running; deleting it removes it', async () => {
    const path = `/api/v1/namespaces/default/pods/smoke-${suffix}`;
    const created = await client.post('/api/v1/namespaces/default/pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: `smoke-${suffix}` },
      spec: {
        nodeSelector: selector,
        containers: [
          { name: 'app', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu: '1' } } },
        ],
      },
    });
    expect(created.status).toBe(201);

    await expect
      .poll(async () => (await client.get<PodObject>(path)).body.status?.phase, poll)
      .toBe('Running');
    const pod = (await client.get<PodObject>(path)).body;
    expect(pod.spec.nodeName).toBe(nodeName);
    expect(condition(pod.status?.conditions, 'Ready')).toBe('True');
    expect(pod.status?.podIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);

    expect((await client.delete(path)).status).toBe(200);
    await expect.poll(async () => (await client.get(path)).status, poll).toBe(404);
  });

  it('runs a Job pod to completion on the kwok node', async () => {
    const created = await client.post('/apis/batch/v1/namespaces/default/jobs', {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: `smoke-${suffix}` },
      spec: {
        backoffLimit: 0,
        template: {
          spec: {
            restartPolicy: 'Never',
            nodeSelector: selector,
            containers: [{ name: 'task', image: 'registry.k8s.io/pause:3.10' }],
          },
        },
      },
    });
    expect(created.status).toBe(201);
    await expect
      .poll(
        async () =>
          (
            await client.get<{ status?: { succeeded?: number } }>(
              `/apis/batch/v1/namespaces/default/jobs/smoke-${suffix}`,
            )
          ).body.status?.succeeded,
        poll,
      )
      .toBe(1);
  });

  it('accepts a CRD by server-side apply and enforces its schema and CEL rules', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: crdName },
      spec: {
        group: crdGroup,
        scope: 'Cluster',
        names: {
          plural: crdPlural,
          singular: `widget${suffix}`,
          kind: `Widget${suffix}`,
          listKind: `Widget${suffix}List`,
        },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    properties: { min: { type: 'integer' }, max: { type: 'integer' } },
                    'x-kubernetes-validations': [
                      { rule: 'self.min <= self.max', message: 'min must not exceed max' },
                    ],
                  },
                },
              },
            },
          },
        ],
      },
    };
    const applied = await client.request(
      'PATCH',
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}?fieldManager=nodewright-smoke&force=true`,
      { body: crd, contentType: 'application/apply-patch+yaml' },
    );
    expect(applied.status).toBe(201);
    await expect
      .poll(
        async () =>
          condition(
            (
              await client.get<{ status?: { conditions?: Condition[] } }>(
                `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`,
              )
            ).body.status?.conditions,
            'Established',
          ),
        poll,
      )
      .toBe('True');

    const collection = `/apis/${crdGroup}/v1/${crdPlural}`;
    const object = (name: string, min: number, max: number) => ({
      apiVersion: `${crdGroup}/v1`,
      kind: `Widget${suffix}`,
      metadata: { name },
      spec: { min, max },
    });
    // Discovery of a fresh CRD can lag Established by a moment; retry until it serves.
    await expect
      .poll(async () => (await client.post(collection, object('good', 1, 2))).status, poll)
      .toBe(201);
    const rejected = await client.post<{ message: string }>(collection, object('bad', 3, 2));
    expect(rejected.status).toBe(422);
    expect(rejected.body.message).toContain('min must not exceed max');
  });
});
