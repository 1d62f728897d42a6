/**
 * Expectations shared by the integration tests that prove a kwok controller plays Nodes and
 * Pods (the kind target, and kwok configured from the in-cluster manifests). Call them inside
 * a test: they use expect.poll.
 */
import { expect } from 'vitest';
import type { KubeHttpClient } from './src/kube-http.js';
import {
  DEFAULT_STAGE_OPTIONS,
  KWOK_NODE_ANNOTATION,
  KWOK_NODE_ANNOTATION_VALUE,
  kwokStages,
} from './src/kwok-stages.js';

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
 * IP from `podIp` (default 10.0.0.0/16, kwok's --cidr; where kube-controller-manager gives
 * Nodes a podCIDR, as kind's does, kwok takes the IP from that), deletes it and waits until it
 * is gone.
 */
export async function expectPodRunsOn(
  client: KubeHttpClient,
  nodeName: string,
  podName: string,
  podIp: RegExp = /^10\.0\.\d+\.\d+$/,
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
  expect(pod.status?.podIP).toMatch(podIp);
  expect((await client.delete(path)).status).toBe(200);
  await expect.poll(async () => (await client.get(path)).status, poll).toBe(404);
}

/** The suite's kwok stages are installed as Stage objects and the kwok Deployment is available. */
export async function expectKwokInstalled(client: KubeHttpClient): Promise<void> {
  const stages = await client.get<{ items: { metadata: { name: string } }[] }>(
    '/apis/kwok.x-k8s.io/v1alpha1/stages',
  );
  expect(stages.status).toBe(200);
  const expected = kwokStages({ ...DEFAULT_STAGE_OPTIONS, kubeletVersion: 'x' }).map((s) => s.metadata.name);
  expect(stages.body.items.map((s) => s.metadata.name).sort()).toEqual([...expected].sort());
  const deployment = await client.get<{ status?: { availableReplicas?: number } }>(
    '/apis/apps/v1/namespaces/kube-system/deployments/kwok-controller',
  );
  expect(deployment.body.status?.availableReplicas).toBe(1);
}

/**
 * Creates a pod with no tolerations and no node to go to, waits until kube-scheduler reports it
 * Unschedulable (so it waits for the autoscaler, as the suite needs), and deletes it.
 */
export async function expectPodStaysPending(client: KubeHttpClient, podName: string): Promise<void> {
  const path = `/api/v1/namespaces/default/pods/${podName}`;
  const created = await client.post('/api/v1/namespaces/default/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: podName },
    spec: { containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }] },
  });
  expect(created.status).toBe(201);
  await expect
    .poll(
      async () =>
        (
          await client.get<{ status?: { conditions?: (Condition & { reason?: string })[] } }>(path)
        ).body.status?.conditions?.find((c) => c.type === 'PodScheduled'),
      poll,
    )
    .toMatchObject({ status: 'False', reason: 'Unschedulable' });
  await client.delete(path);
}
