import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { openSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectKwokNodeReady, expectPodRunsOn } from './kwok-checks.js';
import { applyManifest } from './src/apply.js';
import { ensureBinaries } from './src/binaries.js';
import { type ClusterHandle, startCluster } from './src/cluster.js';
import { KubeHttpClient, probeHealth } from './src/kube-http.js';
import { KWOK_PORT, kwokInClusterManifests } from './src/kwok-manifests.js';
import { DEFAULT_STAGE_OPTIONS, kwokStages } from './src/kwok-stages.js';
import { freePorts } from './src/ports.js';
import { serviceAccountKubeconfig } from './src/service-account-kubeconfig.js';

// The kind target runs kwok v0.8.0 in a Pod, configured only by the objects from
// kwokInClusterManifests. Without Docker, this runs the same kwok release as a process with
// the Deployment's own flags, authenticated as the kwok-controller ServiceAccount, against a
// binary cluster of its own (whose built-in kwok is pointed at an annotation nobody uses):
// it proves the flags, the Stage objects read through --enable-crds and the RBAC suffice.
// What it cannot prove: the image, the Pod (probes, $(POD_IP)) and kind itself
// (kind-cluster.integration.test.ts covers those).

interface Condition {
  type: string;
  status: string;
}

const suffix = randomUUID().slice(0, 8);
const nodeName = `nw-incluster-${suffix}`;
const poll = { timeout: 60_000, interval: 250 };
const manifests = kwokInClusterManifests({
  stages: kwokStages({ ...DEFAULT_STAGE_OPTIONS, kubeletVersion: 'v1.36.5' }),
});
const container = (manifests.deployment.spec as { template: { spec: { containers: { args: string[] }[] } } })
  .template.spec.containers[0]!;

let cluster: ClusterHandle;
let client: KubeHttpClient;
let kwok: ChildProcess | undefined;
let workDir: string;
let kwokLog: string;

beforeAll(async () => {
  cluster = await startCluster({
    extraArgs: { kwok: ['--manage-nodes-with-annotation-selector=nodewright.dev/unused=true'] },
  });
  client = new KubeHttpClient(cluster.connection);
  workDir = await mkdtemp(join(tmpdir(), 'nw-kwok-incluster-'));
  kwokLog = join(workDir, 'kwok.log');

  await applyManifest(client, manifests.crd);
  await vi.waitFor(async () => {
    const crd = await client.get<{ status?: { conditions?: Condition[] } }>(
      `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${manifests.crd.metadata.name}`,
    );
    expect(crd.body.status?.conditions?.find((c) => c.type === 'Established')?.status).toBe('True');
  }, poll);
  for (const manifest of manifests.rbac) await applyManifest(client, manifest);
  // A CR is served a moment after its CRD is Established.
  for (const stage of manifests.stages) await vi.waitFor(() => applyManifest(client, stage), poll);

  const sa = manifests.rbac.find((m) => m.kind === 'ServiceAccount')!.metadata;
  const kubeconfig = join(workDir, 'kubeconfig');
  await writeFile(
    kubeconfig,
    await serviceAccountKubeconfig(client, {
      name: 'kwok',
      server: cluster.server,
      caPem: cluster.connection.ca!,
      serviceAccount: { namespace: sa.namespace!, name: sa.name },
    }),
    { mode: 0o600 },
  );

  // The Deployment's flags, with what the Pod would supply replaced by loopback values.
  const [port] = await freePorts(1);
  const args = container.args.map((arg) =>
    arg
      .replace('$(POD_IP)', '127.0.0.1')
      .replace(`--server-address=0.0.0.0:${KWOK_PORT}`, `--server-address=127.0.0.1:${port}`)
      .replace(`--node-port=${KWOK_PORT}`, `--node-port=${port}`),
  );
  const binDir = await ensureBinaries();
  const out = openSync(kwokLog, 'a');
  kwok = spawn(join(binDir, 'kwok'), [`--kubeconfig=${kubeconfig}`, ...args], {
    stdio: ['ignore', out, out],
  });
  await vi.waitFor(async () => {
    expect(kwok?.exitCode, `kwok exited; see ${kwokLog}`).toBeNull();
    expect(await probeHealth(`http://127.0.0.1:${port}/healthz`, 'none', cluster.connection)).toBe(true);
  }, poll);
}, 600_000);

afterAll(async () => {
  if (kwok && kwok.exitCode === null) {
    const exited = new Promise((resolve) => kwok!.once('exit', resolve));
    kwok.kill('SIGTERM');
    await exited;
  }
  client?.close();
  await cluster?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe('kwok v0.8.0 configured only by the in-cluster manifests', () => {
  it('turns an annotated Node Ready and renews its Lease as the kwok-controller ServiceAccount', async () => {
    await expectKwokNodeReady(client, nodeName);
  });

  it('runs a pod scheduled onto that node, with an IP from the pod CIDR, and deletes it on request', async () => {
    await expectPodRunsOn(client, nodeName, `incluster-${suffix}`);
  });

  it('was never refused by the API server (the ClusterRole covers what kwok did)', async () => {
    const log = await readFile(kwokLog, 'utf8');
    expect(log).not.toMatch(/forbidden/i);
    expect(kwok?.exitCode).toBeNull();
  });
});
