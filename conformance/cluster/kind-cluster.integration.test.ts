import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectKwokInstalled,
  expectKwokNodeReady,
  expectPodRunsOn,
  expectPodStaysPending,
} from './kwok-checks.js';
import { KIND_NODE_TAINT, type KindClusterHandle, startKindCluster } from './src/kind-cluster.js';
import { KubeHttpClient } from './src/kube-http.js';
import { KWOK_NODE_ANNOTATION } from './src/kwok-stages.js';
import { loadKubeconfig } from './src/load-kubeconfig.js';

// The kind target (NODEWRIGHT_CLUSTER=kind) started as the globalSetup starts it: kind and its
// node image built locally, one node tainted, kwok installed. The same contract as the binary
// target: a JSON kubeconfig, kwok playing annotated Nodes, pods Pending until a node
// for them exists.

interface NodeObject {
  metadata: { name: string; annotations?: Record<string, string> };
  spec?: { taints?: { key: string; value?: string; effect: string }[] };
}

describe('the kind cluster target', () => {
  const suffix = randomUUID().slice(0, 8);
  const fakeNode = `nw-kind-${suffix}`;
  let cluster: KindClusterHandle | undefined;
  let client: KubeHttpClient;

  beforeAll(async () => {
    cluster = await startKindCluster({ name: `nw-target-${suffix}` });
    client = new KubeHttpClient(cluster.connection);
    console.info(
      JSON.stringify({
        message: 'kind target started',
        'startup-seconds': Math.round(cluster.startupMs / 1000),
      }),
    );
  }, 45 * 60_000);

  afterAll(async () => {
    client?.close();
    await cluster?.stop();
  }, 120_000);

  it('serves Kubernetes v1.36.5 through the JSON kubeconfig it wrote', async () => {
    const fromFile = await loadKubeconfig(cluster!.kubeconfigPath);
    expect(fromFile.server).toBe(cluster!.server);
    const version = await client.get<{ gitVersion: string }>('/version');
    expect(version.status).toBe(200);
    expect(version.body.gitVersion).toBe('v1.36.5');
  });

  it('has the suite stages installed as Stage objects and kwok running', async () => {
    await expectKwokInstalled(client);
  });

  it('taints its own node, so a pod without a matching toleration stays Pending for the autoscaler', async () => {
    const nodes = await client.get<{ items: NodeObject[] }>('/api/v1/nodes');
    const own = nodes.body.items.filter((n) => n.metadata.annotations?.[KWOK_NODE_ANNOTATION] === undefined);
    expect(own.map((n) => n.metadata.name)).toEqual([`${cluster!.name}-control-plane`]);
    expect(own[0]!.spec?.taints).toContainEqual({ ...KIND_NODE_TAINT });
    await expectPodStaysPending(client, `pending-${suffix}`);
  });

  it('turns an annotated Node Ready with a Lease and runs a pod bound to it', async () => {
    await expectKwokNodeReady(client, fakeNode);
    // kind's kube-controller-manager hands each Node a /24 of 10.244.0.0/16, and kwok uses it.
    await expectPodRunsOn(client, fakeNode, `bound-${suffix}`, /^10\.244\.\d+\.\d+$/);
    await client.delete(`/api/v1/nodes/${fakeNode}`);
  });

  it('deletes its node container on stop', async () => {
    const container = `${cluster!.name}-control-plane`;
    expect(spawnSync('docker', ['inspect', container]).status).toBe(0);
    await cluster!.stop();
    expect(spawnSync('docker', ['inspect', container]).status).not.toBe(0);
  });
});
