import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  applyManifest,
  type ClusterHandle,
  KubeHttpClient,
  serviceAccountKubeconfig,
  startCluster,
} from '@nodewright/conformance/cluster';
import { ControllerProcess, deploymentManifest, nodePoolManifest } from '@nodewright/conformance/suite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { grantedPermissions, type Permission, permission } from './src/code-permissions.js';
import {
  Charts,
  ensureHelm,
  providerValues,
  type RenderedObject,
  renderChart,
  repoRoot,
} from './src/helm.js';

// Installs what `helm install` of both charts would create on a real kube-apiserver, then runs
// the controller (the KWOK provider, the built CLI) as the chart's ServiceAccount with a
// TokenRequest token and the chart's own flags (--install-crds=false, the Lease in the release
// namespace), through provisioning, a NodeClaim deletion that drains by eviction, and
// consolidation of empty nodes. The API server's audit log records every request the
// ServiceAccount made: none may be refused (403), and each must be one the Role grants.

const Namespace = 'nodewright';
const Release = 'nodewright';
const ServiceAccountUser = `system:serviceaccount:${Namespace}:${Release}`;
const AppNamespace = 'rbac-e2e';
const poll = { timeout: 120_000, interval: 500 };
/** The charts' objects are applied as `helm install` would create them. */
const AsHelm = { fieldManager: 'helm' } as const;
/**
 * Set (e.g. `nodewright:0.1.0`, built from the Dockerfile): the controller runs from that image
 * through run-in-image.sh (read-only root, non-root, no capabilities) instead of the built CLI.
 * Needs a Docker engine; the documented test command leaves it unset.
 */
const image = process.env.NODEWRIGHT_CONTROLLER_IMAGE;
const container = `nodewright-rbac-${process.pid}`;

interface AuditEvent {
  verb: string;
  user: { username: string };
  objectRef?: {
    resource?: string;
    subresource?: string;
    apiGroup?: string;
    namespace?: string;
    name?: string;
  };
  responseStatus?: { code?: number; message?: string };
  requestURI: string;
}

let cluster: ClusterHandle;
let client: KubeHttpClient;
let workDir: string;
let auditLog: string;
let controller: ControllerProcess | undefined;
let crdObjects: RenderedObject[];
let chartObjects: RenderedObject[];

beforeAll(async () => {
  // run-in-image.sh names the container from the environment the controller inherits.
  if (image) process.env.NODEWRIGHT_CONTROLLER_CONTAINER = container;
  const helm = await ensureHelm();
  workDir = await mkdtemp(join(tmpdir(), 'nw-rbac-'));
  crdObjects = await renderChart(helm, workDir, Charts.crd, { release: Release, namespace: Namespace });
  chartObjects = await renderChart(helm, workDir, Charts.controller, {
    release: Release,
    namespace: Namespace,
    values: [providerValues('kwok')],
  });
  auditLog = join(workDir, 'audit.log');
  const policy = join(workDir, 'audit-policy.json');
  await writeFile(
    policy,
    JSON.stringify({
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Policy',
      omitStages: ['RequestReceived'],
      rules: [{ level: 'Metadata', users: [ServiceAccountUser] }, { level: 'None' }],
    }),
  );
  cluster = await startCluster({
    extraArgs: { 'kube-apiserver': [`--audit-policy-file=${policy}`, `--audit-log-path=${auditLog}`] },
  });
  client = new KubeHttpClient(cluster.connection);
}, 600_000);

afterAll(async () => {
  if (controller && controller.exit === undefined) await controller.stop();
  // A killed docker CLI leaves its container running.
  if (image) spawnSync('docker', ['rm', '-f', container], { stdio: 'ignore' });
  client?.close();
  await cluster?.stop();
  if (workDir && process.env.NODEWRIGHT_CLUSTER_KEEP !== '1')
    await rm(workDir, { recursive: true, force: true });
});

async function items(path: string): Promise<{ metadata: { name: string }; status?: { phase?: string } }[]> {
  const res = await client.get<{ items: { metadata: { name: string }; status?: { phase?: string } }[] }>(
    path,
  );
  expect(res.status, res.text).toBe(200);
  return res.body.items;
}

async function create(path: string, body: unknown): Promise<void> {
  // A CR is served a moment after its CRD is Established: retry until it is.
  await vi.waitFor(async () => {
    const res = await client.post(path, body);
    expect([201, 409], res.text).toContain(res.status);
  }, poll);
}

async function runningPods(): Promise<number> {
  return (await items(`/api/v1/namespaces/${AppNamespace}/pods`)).filter((p) => p.status?.phase === 'Running')
    .length;
}

async function auditEvents(): Promise<AuditEvent[]> {
  const text = await readFile(auditLog, 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((e) => e.user.username === ServiceAccountUser);
}

function permissionOf(event: AuditEvent): Permission {
  const ref = event.objectRef ?? {};
  const resource = ref.subresource ? `${ref.resource}/${ref.subresource}` : (ref.resource ?? '?');
  return permission(ref.apiGroup ?? '', resource, event.verb);
}

describe('the charts on a real kube-apiserver', () => {
  it('accepts the CRD chart: every CustomResourceDefinition is created and Established', async () => {
    for (const crd of crdObjects) await applyManifest(client, crd, AsHelm);
    await vi.waitFor(async () => {
      for (const crd of crdObjects) {
        const res = await client.get<{ status?: { conditions?: { type: string; status: string }[] } }>(
          `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`,
        );
        expect(
          res.body.status?.conditions?.find((c) => c.type === 'Established')?.status,
          crd.metadata.name,
        ).toBe('True');
      }
    }, poll);
  });

  it("accepts the controller chart's objects (the Deployment as a server-side dry run)", async () => {
    await applyManifest(
      client,
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: Namespace } },
      AsHelm,
    );
    for (const object of chartObjects) {
      // A stored Deployment would make pending pods this test's controller then provisions for.
      await applyManifest(client, object, { ...AsHelm, dryRun: object.kind === 'Deployment' });
    }
    const sa = await client.get(`/api/v1/namespaces/${Namespace}/serviceaccounts/${Release}`);
    expect(sa.status).toBe(200);
    const deployment = await client.get(`/apis/apps/v1/namespaces/${Namespace}/deployments/${Release}`);
    expect(deployment.status).toBe(404);
  });

  it('runs the controller as the ServiceAccount through provisioning, eviction and consolidation', async () => {
    const kubeconfig = join(workDir, 'sa-kubeconfig');
    await writeFile(
      kubeconfig,
      await serviceAccountKubeconfig(client, {
        name: 'sa',
        server: cluster.server,
        caPem: cluster.connection.ca!,
        serviceAccount: { namespace: Namespace, name: Release },
      }),
      // The image's user (65532) reads it through the read-only bind mount.
      { mode: image ? 0o644 : 0o600 },
    );
    // The chart's flags, as the Deployment's args spell them (values.yaml defaults).
    controller = ControllerProcess.start({
      binPath: join(repoRoot, 'packages/cli/dist/bin.js'),
      ...(image ? { nodePath: join(import.meta.dirname, 'run-in-image.sh') } : {}),
      provider: 'kwok',
      kubeconfigPath: kubeconfig,
      identity: 'rbac-test',
      leaderElectionId: 'nodewright-leader-election',
      extraArgs: [
        '--install-crds=false',
        `--leader-election-namespace=${Namespace}`,
        '--cluster-name=nodewright',
      ],
      logFile: join(workDir, 'controller.log'),
    });

    await create('/apis/karpenter.kwok.sh/v1alpha1/kwoknodeclasses', {
      apiVersion: 'karpenter.kwok.sh/v1alpha1',
      kind: 'KWOKNodeClass',
      metadata: { name: 'rbac' },
      spec: {},
    });
    await create(
      '/apis/karpenter.sh/v1/nodepools',
      nodePoolManifest({
        name: 'rbac',
        nodeClassRef: { group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name: 'rbac' },
        requirements: [
          { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['c-4x-amd64-linux'] },
          { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
        ],
        consolidateAfter: '0s',
      }),
    );
    await create('/api/v1/namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: AppNamespace },
    });
    await create(
      `/apis/apps/v1/namespaces/${AppNamespace}/deployments`,
      deploymentManifest({
        name: 'app',
        namespace: AppNamespace,
        replicas: 2,
        nodePool: 'rbac',
        requests: { cpu: '1' },
        onePodPerNode: true,
      }),
    );
    await vi.waitFor(async () => expect(await runningPods()).toBe(2), poll);

    // Deleting a NodeClaim drains its node through the Eviction API, then deletes it.
    const [victim] = await items('/apis/karpenter.sh/v1/nodeclaims');
    expect(victim).toBeDefined();
    const deleted = await client.delete(`/apis/karpenter.sh/v1/nodeclaims/${victim!.metadata.name}`);
    expect(deleted.status, deleted.text).toBe(200);
    await vi.waitFor(async () => {
      const claims = (await items('/apis/karpenter.sh/v1/nodeclaims')).map((c) => c.metadata.name);
      expect(claims).not.toContain(victim!.metadata.name);
      expect(await runningPods()).toBe(2);
    }, poll);

    // No pods: the empty nodes are consolidated away.
    const scaled = await client.request('PATCH', `/apis/apps/v1/namespaces/${AppNamespace}/deployments/app`, {
      body: { spec: { replicas: 0 } },
      contentType: 'application/merge-patch+json',
    });
    expect(scaled.status, scaled.text).toBe(200);
    await vi.waitFor(async () => expect(await items('/apis/karpenter.sh/v1/nodeclaims')).toEqual([]), {
      ...poll,
      timeout: 180_000,
    });
    const exit = await controller.stop();
    expect(exit.code).toBe(0);
  }, 420_000);

  it('was never refused: zero 403s in the audit log, every request one the chart grants', async () => {
    const events = await auditEvents();
    const forbidden = events.filter((e) => e.responseStatus?.code === 403);
    expect(forbidden.map((e) => `${e.verb} ${e.requestURI}: ${e.responseStatus?.message}`)).toEqual([]);
    const rules = chartObjects
      .filter((o) => o.kind === 'ClusterRole' || o.kind === 'Role')
      .flatMap((o) => (o as unknown as { rules: Parameters<typeof grantedPermissions>[0] }).rules);
    const granted = grantedPermissions(rules);
    const used = new Set(events.map(permissionOf));
    expect([...used].filter((p) => !granted.has(p))).toEqual([]);
    // The run reached the paths that need the most: launching, draining, leadership.
    for (const p of [
      '/nodes create',
      '/pods/eviction create',
      'karpenter.sh/nodeclaims create',
      'karpenter.sh/nodeclaims/status update',
      'coordination.k8s.io/leases update',
      'apiextensions.k8s.io/customresourcedefinitions get',
    ]) {
      expect(used, p).toContain(p);
    }
    process.stderr.write(
      `[rbac] ${events.length} audited requests, ${used.size} of ${granted.size} granted permissions used; ` +
        `not reached in this run: ${
          [...granted]
            .filter((p) => !used.has(p))
            .sort()
            .join(', ') || 'none'
        }\n`,
    );
    const log = await readFile(join(workDir, 'controller.log'), 'utf8');
    expect(log).not.toMatch(/forbidden/i);
  });
});
