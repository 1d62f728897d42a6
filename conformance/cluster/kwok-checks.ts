/**
 * Expectations shared by the integration tests that prove a kwok controller plays Nodes and
 * Pods (the k3s target, and kwok configured from the in-cluster manifests). Call them inside
 * a test: they use expect.poll.
 */
import { expect } from 'vitest';
import type { KubeHttpClient } from './src/kube-http.js';
import { KWOK_NODE_ANNOTATION, KWOK_NODE_ANNOTATION_VALUE } from './src/kwok-stages.js';

interface Condition {
  type: string;
  status: string;
}
interface PodObject {
  spec: { nodeName?: string };
  status?: { phase?: string; podIP?: string };
}

const poll = { timeout: 90_000, interval: 250 };

/** Creates a Node annotated for kwok and waits until it is Ready and has a Lease. */
export async function expectKwokNodeReady(client: KubeHttpClient, name: string): Promise<void> {
  const created = await client.post('/api/v1/nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { [KWOK_NODE_ANNOTATION]: KWOK_NODE_ANNOTATION_VALUE },
      labels: { 'kubernetes.io/hostname': name },
    },
    status: { capacity: { cpu: '4', memory: '8Gi', pods: '20' } },
  });
  expect(created.status).toBe(201);
  await expect
    .poll(
      async () =>
        (
          await client.get<{ status?: { conditions?: Condition[] } }>(`/api/v1/nodes/${name}`)
        ).body.status?.conditions?.find((c) => c.type === 'Ready')?.status,
      poll,
    )
    .toBe('True');
  await expect
    .poll(
      async () =>
        (await client.get(`/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${name}`)).status,
      poll,
    )
    .toBe(200);
}

/**
 * Schedules a pod onto the node (by hostname), waits until kwok reports it Running with an
 * IP from 10.0.0.0/16, deletes it and waits until it is gone.
 */
export async function expectPodRunsOn(
  client: KubeHttpClient,
  nodeName: string,
  podName: string,
): Promise<void> {
  const path = `/api/v1/namespaces/default/pods/${podName}`;
  const created = await client.post('/api/v1/namespaces/default/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: podName },
    spec: {
      nodeSelector: { 'kubernetes.io/hostname': nodeName },
      containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }],
    },
  });
  expect(created.status).toBe(201);
  await expect.poll(async () => (await client.get<PodObject>(path)).body.status?.phase, poll).toBe('Running');
  const pod = (await client.get<PodObject>(path)).body;
  expect(pod.spec.nodeName).toBe(nodeName);
  expect(pod.status?.podIP).toMatch(/^10\.0\.\d+\.\d+$/);
  expect((await client.delete(path)).status).toBe(200);
  await expect.poll(async () => (await client.get(path)).status, poll).toBe(404);
}
