import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import awsProviderPlugin from '@nodewright/aws';
import azureProviderPlugin from '@nodewright/azure';
import { type AwsMock, startAwsMock } from '@nodewright/conformance/mocks/aws';
import { type AzureMock, startAzureMock } from '@nodewright/conformance/mocks/azure';
import { type GcpMock, startGcpMock } from '@nodewright/conformance/mocks/gcp';
import { waitUntil } from '@nodewright/conformance/suite';
import type { ProviderPlugin } from '@nodewright/core/operator';
import gcpProviderPlugin from '@nodewright/gcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockAwsSettings, mockEC2NodeClass } from '../suite/src/providers/aws-harness.js';
import { mockAKSNodeClass } from '../suite/src/providers/azure-e2e-target.js';
import { mockAzureSettings } from '../suite/src/providers/azure-harness.js';
import { mockGCENodeClass, mockGcpSettings } from '../suite/src/providers/gcp-harness.js';
import { ensureControllerImage } from './src/controller-image.js';
import { type CommandResult, ensureKind, repoRoot, runCommand } from './src/helm.js';
import {
  applyObjects,
  type KindSession,
  poolWorkload,
  startKindKubelets,
  swapControllerRelease,
} from './src/in-cluster-release.js';
import { kindNetworkHost } from './src/kind-network.js';
import type { MockCloudRelease } from './src/mock-cloud-release.js';
import { parseTryKwokSteps, TRY_KWOK_STEPS } from './src/try-kwok-log.js';

// The install guide's "try it on kind with KWOK" as the test command runs it on a machine with
// no container registry: a kind cluster from a locally built node image, the controller image
// loaded into it, both charts installed with helm, and the controller running in the cluster as
// the chart's Deployment under its ServiceAccount. deploy/kind/try-kwok.sh does the install and
// its own checks (pods bound only to kwok nodes nodewright launched, the nodes gone after the
// scale-down); this test then fails the leader over by deleting its pod, as an operator would
// meet it, and has the next leader provision again. Then the KWOK release makes way for the AWS
// one, that for the GCP one and that for the Azure one (src/in-cluster-release.ts): the controller, still a Pod of the
// chart's Deployment from the same image, talks to a mock cloud this test serves on the kind
// network's host address, launches instances for pods, replaces a node the cloud takes away (an
// SQS interruption message; a spot preemption or eviction), and leaves no instance running once its
// NodePool is gone. The test plays kubelet for the mocks' instances, as the e2e suite does.

const Cluster = `nw-test-${process.pid}`;
const Minute = 60_000;

let work: string;
let kubeconfig: string;
let kubectlPath: string;
let kindPath: string | undefined;
let install: CommandResult;

async function output(command: string, args: readonly string[]): Promise<string> {
  const result = await runCommand(command, args, { ...process.env, KUBECONFIG: kubeconfig });
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (exit ${result.code}): ${result.stderr.slice(-1500)}`,
    );
  }
  return result.stdout.trim();
}

const kubectl = (...args: string[]) => output(kubectlPath, args);
const kubectlJson = async <T>(...args: string[]): Promise<T> =>
  JSON.parse(await kubectl(...args, '-o', 'json')) as T;

const leaseHolder = () =>
  kubectl(
    '-n',
    'nodewright',
    'get',
    'lease',
    'nodewright-leader-election',
    '-o',
    'jsonpath={.spec.holderIdentity}',
  );

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'nodewright-kind-'));
  kubeconfig = join(work, 'kubeconfig');
  // Builds what is missing (kind, the node image, the controller image, helm; each cached by
  // its inputs), starts the cluster and installs; progress goes to stderr as it comes.
  install = await runCommand('bash', [`${repoRoot}deploy/kind/try-kwok.sh`, Cluster], {
    ...process.env,
    TRY_KWOK_KUBECONFIG: kubeconfig,
  });
  // try-kwok.sh built kind; when it could not, the first test says why.
  kindPath = await ensureKind().catch(() => undefined);
  const binDir = await runCommand('bash', [`${repoRoot}deploy/kind/build-node-image.sh`, '--bin-dir']);
  kubectlPath = `${binDir.stdout.trim().split('\n').at(-1)}/kubectl`;
}, 50 * Minute);

afterAll(async () => {
  if (kindPath !== undefined) await runCommand(kindPath, ['delete', 'cluster', '--name', Cluster]);
  if (work !== undefined) await rm(work, { recursive: true, force: true });
}, 2 * Minute);

describe('nodewright installed on kind with helm, the controller in the cluster', () => {
  it('installs from the image and both charts, provisions kwok nodes for pods and removes them when empty', () => {
    const steps = parseTryKwokSteps(install.stderr);
    if (install.code !== 0) {
      throw new Error(`try-kwok.sh failed (exit ${install.code}):\n${install.stderr.slice(-3000)}`);
    }
    expect(steps.map((s) => s.step)).toEqual(TRY_KWOK_STEPS);
    expect(install.stderr).toMatch(/\[try-kwok\] OK: cluster /);
    console.info(
      JSON.stringify({
        message: 'kind install measured',
        cluster: Cluster,
        seconds: Object.fromEntries(steps.map((s) => [s.step, s.seconds])),
      }),
    );
  });

  it('fails over when the leader pod is deleted, and the next leader provisions', async () => {
    expect(install.code).toBe(0);
    const first = await leaseHolder();
    expect(first).toMatch(/^nodewright-/);
    const started = Date.now();
    await kubectl('-n', 'nodewright', 'delete', 'pod', first, '--wait=false');
    // One replica: the Deployment starts a new pod, which takes the Lease once the old holder
    // released it on SIGTERM or its lease ran out.
    const next = await waitUntil(leaseHolder, (holder) => holder !== '' && holder !== first, {
      what: 'a new pod to hold the Lease',
      timeoutMs: 3 * Minute,
      intervalMs: 2000,
    });
    const failoverSeconds = Math.round((Date.now() - started) / 100) / 10;
    const phase = await kubectl('-n', 'nodewright', 'get', 'pod', next, '-o', 'jsonpath={.status.phase}');
    expect(phase).toBe('Running');

    await kubectl('scale', 'deployment', 'inflate', '--replicas=2');
    const runningOn = async () =>
      (
        await kubectl(
          'get',
          'pods',
          '-l',
          'app=inflate',
          '--field-selector=status.phase=Running',
          '-o',
          'jsonpath={.items[*].spec.nodeName}',
        )
      )
        .split(/\s+/)
        .filter((n) => n !== '');
    const nodes = await waitUntil(runningOn, (names) => names.length === 2, {
      what: '2 inflate pods Running',
      timeoutMs: 3 * Minute,
      intervalMs: 2000,
    });
    for (const node of nodes) {
      const pool = await kubectl(
        'get',
        'node',
        node,
        '-o',
        'jsonpath={.metadata.labels.karpenter\\.sh/nodepool}',
      );
      expect(pool, `node ${node}`).toBe('default');
    }
    const claims = (await kubectl('get', 'nodeclaims', '-o', 'name')).split('\n').filter((l) => l !== '');
    expect(claims.length).toBeGreaterThan(0);
    console.info(
      JSON.stringify({
        message: 'kind failover measured',
        'old-leader': first,
        'new-leader': next,
        'failover-seconds': failoverSeconds,
        nodeclaims: claims.length,
      }),
    );
  });
});

interface Listed<T> {
  items: T[];
}
interface KubeObject {
  metadata: { name: string; labels?: Record<string, string> };
  spec?: { nodeName?: string; providerID?: string };
  status?: { phase?: string; providerID?: string; nodeName?: string };
}

const session: KindSession = {
  get kubeconfig() {
    return kubeconfig;
  },
  get work() {
    return work;
  },
  kubectl,
};

/** The address pods reach the host at: mocks listen there, and the URLs they hand out name it. */
const kindHost = kindNetworkHost;

/** The release of `provider` against a mock: this test's image and cluster name, a Lease of its own. */
const mockRelease = async (
  provider: string,
  plugin: ProviderPlugin,
  settings: Record<string, string>,
): Promise<MockCloudRelease> => ({
  image: await ensureControllerImage(),
  settings,
  secretSettings: plugin.secretSettings ?? [],
  secretName: `${provider}-mock-credentials`,
  clusterName: Cluster,
  leaderElectionId: `nodewright-${provider}-leader-election`,
});

const liveClaims = async (pool: string) =>
  (await kubectlJson<Listed<KubeObject>>('get', 'nodeclaims', '-l', `karpenter.sh/nodepool=${pool}`)).items;
const runningPods = async (app: string) =>
  (
    await kubectlJson<Listed<KubeObject>>(
      'get',
      'pods',
      '-l',
      `app=${app}`,
      '--field-selector=status.phase=Running',
    )
  ).items;
const nodeOf = (pod: KubeObject) => kubectlJson<KubeObject>('get', 'node', String(pod.spec?.nodeName));
const lastSegment = (providerID: string) => providerID.slice(providerID.lastIndexOf('/') + 1);

/** Waits for the NodeClass's Ready condition, as a user would before creating pods. */
async function nodeClassReady(resource: string, name: string): Promise<void> {
  await waitUntil(
    () => kubectl('get', resource, name, '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'),
    (ready) => ready === 'True',
    { what: `${resource} ${name} Ready`, timeoutMs: 2 * Minute, intervalMs: 2000 },
  );
}

/** Waits until `count` pods of the app run. */
const podsRunning = (app: string, count: number) =>
  waitUntil(
    () => runningPods(app),
    (p) => p.length === count,
    { what: `${count} ${app} pods Running`, timeoutMs: 4 * Minute, intervalMs: 2000 },
  );

/**
 * Waits until the cloud's taking `claim`'s instance away (`cause`) has removed the NodeClaim
 * and the app's pods run again, none on its old node; resolves to those pods.
 */
async function replacedAfter(
  pool: string,
  app: string,
  claim: KubeObject,
  cause: string,
): Promise<KubeObject[]> {
  await waitUntil(
    () => liveClaims(pool),
    (cs) => cs.every((c) => c.metadata.name !== claim.metadata.name),
    {
      what: `NodeClaim ${claim.metadata.name} to go after the ${cause}`,
      timeoutMs: 3 * Minute,
      intervalMs: 2000,
    },
  );
  const oldNode = String(claim.status?.nodeName);
  return waitUntil(
    () => runningPods(app),
    (p) => p.length === 2 && p.every((pod) => pod.spec?.nodeName !== oldNode),
    { what: `2 ${app} pods Running, none on ${oldNode}`, timeoutMs: 4 * Minute, intervalMs: 2000 },
  );
}

/**
 * Applies the NodeClass and a spot NodePool over it with 2 pods of `app`, waits until its
 * NodeClass is Ready and the pods run, checks each runs on a spot node of the pool, and
 * resolves to those nodes' providerIDs.
 */
async function spotPodsRunning(
  pool: string,
  app: string,
  nodeClass: Record<string, unknown>,
  nodeClassRef: { group: string; kind: string; name: string },
): Promise<string[]> {
  await applyObjects(session, `${pool}-workload`, [
    nodeClass,
    ...poolWorkload({
      pool,
      app,
      nodeClassRef,
      requirements: [
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
        { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
      ],
      replicas: 2,
    }),
  ]);
  await nodeClassReady(nodeClassRef.kind.toLowerCase(), nodeClassRef.name);
  const providerIDs: string[] = [];
  for (const pod of await podsRunning(app, 2)) {
    const node = await nodeOf(pod);
    expect(node.metadata.labels?.['karpenter.sh/nodepool']).toBe(pool);
    expect(node.metadata.labels?.['karpenter.sh/capacity-type']).toBe('spot');
    providerIDs.push(String(node.spec?.providerID));
  }
  return providerIDs;
}

/** Deletes the workload and its NodePool, and waits until the NodeClaims went with it. */
async function removePool(pool: string, app: string): Promise<void> {
  await kubectl('delete', 'deployment', app, '--ignore-not-found');
  await kubectl('delete', 'nodepool', pool, '--ignore-not-found', '--wait=false');
  await waitUntil(
    () => liveClaims(pool),
    (claims) => claims.length === 0,
    { what: `the ${pool} NodeClaims to go with their NodePool`, timeoutMs: 3 * Minute, intervalMs: 2000 },
  );
}

const AwsPool = 'aws-kind';
const AwsApp = 'aws-inflate';

describe('the AWS provider in the cluster, against the EC2/Pricing/SQS mock on the kind network', () => {
  let mock: AwsMock | undefined;
  let kubelets: { stop(): void } | undefined;
  let controllerPod = '';

  beforeAll(async () => {
    if (install.code !== 0) throw new Error('try-kwok.sh failed (see the first test): no cluster to use');
    // The KWOK NodePool goes while its controller still runs to finalise the NodeClaims.
    await removePool('default', 'inflate');
    mock = await startAwsMock({ host: await kindHost(), cluster: Cluster });
    controllerPod = await swapControllerRelease(
      session,
      'aws',
      await mockRelease(
        'aws',
        awsProviderPlugin,
        mockAwsSettings(mock, { interruptionQueue: mock.interruptionQueue.name }),
      ),
    );
    kubelets = await startKindKubelets(kubeconfig, mock.instances);
  }, 15 * Minute);

  afterAll(async () => {
    kubelets?.stop();
    await mock?.close();
  });

  it('runs as the chart Deployment, reads the mock credentials from the Secret, and launches instances for pods', async () => {
    const pod = await kubectlJson<{
      spec: {
        serviceAccountName: string;
        containers: { args: string[]; env?: { name: string; value?: string; valueFrom?: unknown }[] }[];
      };
    }>('-n', 'nodewright', 'get', 'pod', controllerPod);
    expect(pod.spec.serviceAccountName).toBe('nodewright');
    const container = pod.spec.containers[0]!;
    const env = container.env ?? [];
    expect(env.find((e) => e.name === 'NODEWRIGHT_SETTING_ENDPOINT')?.value).toBe(mock!.endpoint);
    // The keys are in the Secret, not the pod spec or the command line. The mock takes any key,
    // but the SDK signs nothing without one: instances launched below prove they were read.
    for (const [name, key] of [
      ['NODEWRIGHT_SETTING_ACCESS_KEY_ID', 'accessKeyId'],
      ['NODEWRIGHT_SETTING_SECRET_ACCESS_KEY', 'secretAccessKey'],
    ] as const) {
      const variable = env.find((e) => e.name === name);
      expect(variable?.value, name).toBeUndefined();
      expect(variable?.valueFrom, name).toEqual({ secretKeyRef: { name: 'aws-mock-credentials', key } });
    }
    expect(container.args.join(' ')).not.toMatch(/AKIAMOCK|mock-secret|accessKeyId|secretAccessKey/);

    await applyObjects(session, 'aws-workload', [
      mockEC2NodeClass('default', Cluster) as unknown as Record<string, unknown>,
      ...poolWorkload({
        pool: AwsPool,
        app: AwsApp,
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [
          { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
          { key: 'karpenter.k8s.aws/instance-category', operator: 'In', values: ['c', 'm'] },
          { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
        ],
        replicas: 2,
      }),
    ]);
    await nodeClassReady('ec2nodeclass', 'default');
    const pods = await podsRunning(AwsApp, 2);
    const claims = await liveClaims(AwsPool);
    for (const p of pods) {
      const node = await nodeOf(p);
      expect(node.metadata.labels?.['karpenter.sh/nodepool']).toBe(AwsPool);
      const providerID = String(node.spec?.providerID);
      expect(providerID).toMatch(/^aws:\/\/\/[a-z0-9-]+\/i-[0-9a-f]+$/);
      expect(mock!.ec2.instances.get(lastSegment(providerID))?.state).toBe('running');
      expect(claims.map((c) => c.status?.providerID)).toContain(providerID);
      expect(['c', 'm']).toContain(node.metadata.labels?.['karpenter.k8s.aws/instance-category']);
    }
  });

  it('drains and replaces a node when the SQS queue says its instance is stopping', async () => {
    const before = await liveClaims(AwsPool);
    const claim = before[0]!;
    const instanceId = lastSegment(String(claim.status?.providerID));
    const oldNode = String(claim.status?.nodeName);
    mock!.pushInterruption(mock!.events.stateChange(instanceId, 'stopping'));
    const pods = await replacedAfter(AwsPool, AwsApp, claim, 'interruption message');
    expect(mock!.ec2.instances.get(instanceId)?.state).toMatch(/shutting-down|terminated/);
    const after = await liveClaims(AwsPool);
    expect(after.some((c) => !before.some((b) => b.metadata.name === c.metadata.name))).toBe(true);
    expect(pods.map((p) => p.spec?.nodeName)).not.toContain(oldNode);
  });

  it('terminates every instance it launched once the NodePool is deleted', async () => {
    await removePool(AwsPool, AwsApp);
    const launched = [...mock!.ec2.instances.values()];
    expect(launched.length).toBeGreaterThanOrEqual(3);
    expect(launched.filter((i) => i.state === 'pending' || i.state === 'running').map((i) => i.id)).toEqual(
      [],
    );
    expect(await kubectl('get', 'nodes', '-l', `karpenter.sh/nodepool=${AwsPool}`, '-o', 'name')).toBe('');
  });
});

const GcpPool = 'gcp-kind';
const GcpApp = 'gcp-inflate';

describe('the GCP provider in the cluster, against the Compute Engine mock on the kind network', () => {
  let mock: GcpMock | undefined;
  let kubelets: { stop(): void } | undefined;

  /** The mock's VM behind a `gce://project/zone/name` providerID, while it is listed. */
  const vmOf = (providerID: string) => {
    const [zone, name] = providerID.replace(/^gce:\/\/[^/]+\//, '').split('/');
    return mock!.compute.instances(zone).find((i) => i.name === name);
  };

  beforeAll(async () => {
    if (install.code !== 0) throw new Error('try-kwok.sh failed (see the first test): no cluster to use');
    await removePool(AwsPool, AwsApp);
    mock = await startGcpMock({ host: await kindHost(), project: 'kind-project' });
    await swapControllerRelease(
      session,
      'gcp',
      await mockRelease('gcp', gcpProviderPlugin, mockGcpSettings(mock)),
    );
    kubelets = await startKindKubelets(kubeconfig, mock.instances);
  }, 15 * Minute);

  afterAll(async () => {
    kubelets?.stop();
    await mock?.close();
  });

  it('launches VMs for pods, and a preempted spot VM is replaced', async () => {
    const nodeClassRef = { group: 'karpenter.k8s.gcp', kind: 'GCENodeClass', name: 'default' };
    const gceNodeClass = mockGCENodeClass('default') as unknown as Record<string, unknown>;
    for (const providerID of await spotPodsRunning(GcpPool, GcpApp, gceNodeClass, nodeClassRef)) {
      expect(providerID).toMatch(/^gce:\/\/kind-project\/[a-z0-9-]+\/[a-z0-9-]+$/);
      expect(vmOf(providerID)?.stoppingAt).toBeUndefined();
    }

    const [claim] = await liveClaims(GcpPool);
    const providerID = String(claim!.status?.providerID);
    const vm = vmOf(providerID)!;
    mock!.compute.preempt(vm.zone, vm.name);
    await replacedAfter(GcpPool, GcpApp, claim!, 'preemption');
  });

  it('deletes every VM it launched once the NodePool is deleted', async () => {
    await removePool(GcpPool, GcpApp);
    await waitUntil(
      async () => mock!.compute.instances().filter((i) => i.stoppingAt === undefined),
      (running) => running.length === 0,
      { what: 'no VM left running', timeoutMs: Minute, intervalMs: 1000 },
    );
    expect(await kubectl('get', 'nodes', '-l', `karpenter.sh/nodepool=${GcpPool}`, '-o', 'name')).toBe('');
  });
});

const AzurePool = 'azure-kind';
const AzureApp = 'azure-inflate';
/** Where the controller container reads the mock's CA: a ConfigMap, the root stays read-only. */
const AzureCaDir = '/etc/nodewright/mock-ca';

describe('the Azure provider in the cluster, against the ARM mock (TLS, its own CA) on the kind network', () => {
  let mock: AzureMock | undefined;
  let kubelets: { stop(): void } | undefined;

  const vmExists = (name: string) =>
    mock!.state.vms.has(`${mock!.resourceGroup.toLowerCase()}/${name.toLowerCase()}`);

  beforeAll(async () => {
    if (install.code !== 0) throw new Error('try-kwok.sh failed (see the first test): no cluster to use');
    await removePool(GcpPool, GcpApp);
    // Its serving certificate names the kind host address, signed by a CA made for this run.
    mock = await startAzureMock({ host: await kindHost() });
    await applyObjects(session, 'azure-ca', [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'azure-mock-ca', namespace: 'nodewright' },
        data: { 'ca.crt': mock.caPem },
      },
    ]);
    const release = await mockRelease(
      'azure',
      azureProviderPlugin,
      mockAzureSettings(mock, { caFile: `${AzureCaDir}/ca.crt`, pollInterval: '200ms' }),
    );
    await swapControllerRelease(session, 'azure', {
      ...release,
      extraValues: {
        extraVolumes: [{ name: 'mock-ca', configMap: { name: 'azure-mock-ca' } }],
        extraVolumeMounts: [{ name: 'mock-ca', mountPath: AzureCaDir, readOnly: true }],
      },
    });
    kubelets = await startKindKubelets(kubeconfig, mock.instances);
  }, 15 * Minute);

  afterAll(async () => {
    kubelets?.stop();
    await mock?.close();
  });

  it('launches VMs for pods over TLS it trusts through caFile, and an evicted spot VM is replaced', async () => {
    const nodeClassRef = { group: 'karpenter.azure.com', kind: 'AKSNodeClass', name: 'default' };
    const aksNodeClass = mockAKSNodeClass('default') as unknown as Record<string, unknown>;
    for (const providerID of await spotPodsRunning(AzurePool, AzureApp, aksNodeClass, nodeClassRef)) {
      expect(providerID).toMatch(
        /^azure:\/\/\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/Microsoft\.Compute\/virtualMachines\/[^/]+$/i,
      );
      expect(vmExists(lastSegment(providerID))).toBe(true);
    }

    const [claim] = await liveClaims(AzurePool);
    const name = lastSegment(String(claim!.status?.providerID));
    mock!.evict(name);
    expect(mock!.state.evicted).toContain(name);
    await replacedAfter(AzurePool, AzureApp, claim!, 'eviction');
    expect(vmExists(name)).toBe(false);
  });

  it('deletes every VM it launched once the NodePool is deleted', async () => {
    await removePool(AzurePool, AzureApp);
    await waitUntil(
      async () => [...mock!.state.vms.keys()],
      (vms) => vms.length === 0,
      { what: 'no VM left', timeoutMs: Minute, intervalMs: 1000 },
    );
    expect(await kubectl('get', 'nodes', '-l', `karpenter.sh/nodepool=${AzurePool}`, '-o', 'name')).toBe('');
  });
});
