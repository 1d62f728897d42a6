import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  expectKwokInstalled,
  expectKwokNodeReady,
  expectPodRunsOn,
  expectPodStaysPending,
} from './kwok-checks.js';
import { missingLocalImages, probeDockerEngine } from './src/docker-probe.js';
import { K3S_IMAGE, K3S_SERVER_TAINT, type K3sClusterHandle, startK3sCluster } from './src/k3s-cluster.js';
import { KubeHttpClient } from './src/kube-http.js';
import { KWOK_IMAGE } from './src/kwok-manifests.js';
import { KWOK_NODE_ANNOTATION } from './src/kwok-stages.js';
import { loadKubeconfig } from './src/load-kubeconfig.js';

// The k3s target starts a container, so it can only be exercised where a Docker engine answers
// and holds the k3s and kwok images: nothing can be pulled where no registry is reachable, and a
// start that has to pull fails. Decided before collection (synchronously), and said out loud
// when it is not exercised: a skipped block here is not coverage of the k3s path.
const docker = probeDockerEngine();
const missing = docker.reachable ? missingLocalImages([K3S_IMAGE, KWOK_IMAGE]) : [];
const runnable = docker.reachable && missing.length === 0;
if (!runnable) {
  const why = docker.reachable
    ? `the engine does not hold ${missing.join(' and ')}, and a start would have to pull them`
    : docker.reason;
  process.stderr.write(
    `[k3s] k3s-cluster.integration.test.ts: the k3s cluster tests did NOT run (${why})` +
      (docker.reachable ? '\n' : '; only the no-engine refusal is checked\n'),
  );
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
}
interface NodeObject {
  metadata: { name: string; annotations?: Record<string, string> };
  spec?: { taints?: { key: string; value?: string; effect: string }[] };
  status?: { conditions?: Condition[] };
}

describe.runIf(runnable)('the k3s cluster (testcontainers)', () => {
  const suffix = randomUUID().slice(0, 8);
  const fakeNode = `nw-k3s-${suffix}`;
  let cluster: K3sClusterHandle | undefined;
  let client: KubeHttpClient;

  beforeAll(async () => {
    cluster = await startK3sCluster();
    client = new KubeHttpClient(cluster.connection);
  }, 900_000);

  afterAll(async () => {
    client?.close();
    await cluster?.stop();
  });

  it('serves Kubernetes v1.36.5 from k3s through the JSON kubeconfig it wrote', async () => {
    const fromFile = await loadKubeconfig(cluster!.kubeconfigPath);
    expect(fromFile.server).toBe(cluster!.server);
    const version = await client.get<{ gitVersion: string }>('/version');
    expect(version.status).toBe(200);
    expect(version.body.gitVersion).toMatch(/^v1\.36\.5\+k3s\d+$/);
  });

  it('has the binary cluster stages installed as Stage objects and kwok running', async () => {
    await expectKwokInstalled(client);
  });

  it('taints its own node, so a pod without a matching toleration stays Pending for the autoscaler', async () => {
    const nodes = await client.get<{ items: NodeObject[] }>('/api/v1/nodes');
    const server = nodes.body.items.filter(
      (n) => n.metadata.annotations?.[KWOK_NODE_ANNOTATION] === undefined,
    );
    expect(server).toHaveLength(1);
    expect(server[0]!.spec?.taints).toContainEqual({ ...K3S_SERVER_TAINT });
    await expectPodStaysPending(client, `pending-${suffix}`);
  });

  it('turns an annotated Node Ready with a Lease and runs a pod bound to it', async () => {
    await expectKwokNodeReady(client, fakeNode);
    await expectPodRunsOn(client, fakeNode, `bound-${suffix}`);
    await client.delete(`/api/v1/nodes/${fakeNode}`);
  });

  it('removes its container on stop', async () => {
    const id = cluster!.containerId;
    await cluster!.stop();
    const { getContainerRuntimeClient } = await import('testcontainers');
    const runtime = await getContainerRuntimeClient();
    await expect(runtime.container.inspect(runtime.container.getById(id))).rejects.toThrow();
  });
});

describe.runIf(!docker.reachable)('the k3s cluster without a Docker engine', () => {
  it('refuses to start, with testcontainers cause and the alternatives', async () => {
    await expect(startK3sCluster({ log: () => {} })).rejects.toThrow(
      /needs a Docker engine.*Could not find a working container runtime strategy.*unset NODEWRIGHT_CLUSTER/,
    );
  });
});
