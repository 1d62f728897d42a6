import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import awsProviderPlugin from '@nodewright/aws';
import { KubeletHarness } from '@nodewright/conformance/harness';
import { type AwsMock, startAwsMock } from '@nodewright/conformance/mocks/aws';
import { waitUntil } from '@nodewright/conformance/suite';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import { ClientNodeCluster, kubeConfigFromFile, silentLogger } from '@nodewright/core/kube';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockAwsSettings, mockEC2NodeClass } from '../suite/src/providers/aws-harness.js';
import { ensureControllerImage } from './src/controller-image.js';
import {
  Charts,
  type CommandResult,
  ensureHelm,
  providerValues,
  repoRoot,
  runCommand,
  runHelm,
} from './src/helm.js';
import { kindHostAddress } from './src/kind-network.js';
import { credentialsSecret, mockCloudReleaseValues } from './src/mock-cloud-release.js';
import { parseTryKwokSteps, TRY_KWOK_STEPS } from './src/try-kwok-log.js';

// The install guide's "try it on kind with KWOK" as the test command runs it on a machine with
// no container registry: a kind cluster from a locally built node image, the controller image
// loaded into it, both charts installed with helm, and the controller running in the cluster as
// the chart's Deployment under its ServiceAccount. deploy/kind/try-kwok.sh does the install and
// its own checks (pods bound only to kwok nodes nodewright launched, the nodes gone after the
// scale-down); this test then fails the leader over by deleting its pod, as an operator would
// meet it, and has the next leader provision again.

const Cluster = `nw-test-${process.pid}`;
const Minute = 60_000;

let work: string;
let kubeconfig: string;
let kubectlPath: string;
let kindPath: string;
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
  kindPath = `${(await runCommand('bash', [`${repoRoot}deploy/kind/build-kind.sh`])).stdout.trim().split('\n').at(-1)}/kind`;
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

const AwsPool = 'aws-kind';
const AwsApp = 'aws-inflate';
const AwsLease = 'nodewright-aws-leader-election';

describe('the AWS provider in the cluster, against the EC2/Pricing/SQS mock on the kind network', () => {
  let mock: AwsMock | undefined;
  let cluster: ClientNodeCluster | undefined;
  let harness: KubeletHarness | undefined;
  let controllerPod = '';

  const instanceOf = (providerID: string) => providerID.slice(providerID.lastIndexOf('/') + 1);
  const liveClaims = async () =>
    (await kubectlJson<Listed<KubeObject>>('get', 'nodeclaims', '-l', `karpenter.sh/nodepool=${AwsPool}`))
      .items;
  const runningPods = async () =>
    (
      await kubectlJson<Listed<KubeObject>>(
        'get',
        'pods',
        '-l',
        `app=${AwsApp}`,
        '--field-selector=status.phase=Running',
      )
    ).items;

  beforeAll(async () => {
    if (install.code !== 0) throw new Error('try-kwok.sh failed (see the first test): no cluster to use');
    // The KWOK release's NodePool goes first, while its controller still runs to finalise the
    // NodeClaims (they are owned by the NodePool, so they go with it).
    await kubectl('delete', 'deployment', 'inflate', '--ignore-not-found');
    await kubectl('delete', 'nodepool', 'default', '--ignore-not-found', '--wait=false');
    await waitUntil(
      () => kubectl('get', 'nodeclaims', '-o', 'name'),
      (names) => names === '',
      { what: 'the KWOK NodeClaims to go with their NodePool', timeoutMs: 3 * Minute, intervalMs: 2000 },
    );
    const helm = await ensureHelm();
    const helmHome = join(work, 'helm');
    const helmRun = async (args: string[]) => {
      const result = await runHelm(helm, [...args, '--kubeconfig', kubeconfig], helmHome);
      if (result.code !== 0) throw new Error(`helm ${args.join(' ')} failed: ${result.stderr}`);
    };
    await helmRun(['uninstall', 'nodewright', '--namespace', 'nodewright', '--wait']);

    // Served where the pod reaches it; the SQS queue URL the mock hands out names this address too.
    const host = kindHostAddress(
      await output('docker', ['network', 'inspect', 'kind', '--format', '{{json .IPAM.Config}}']),
    );
    mock = await startAwsMock({ host, cluster: Cluster });
    const release = {
      image: await ensureControllerImage(),
      settings: mockAwsSettings(mock, { interruptionQueue: mock.interruptionQueue.name }),
      secretSettings: awsProviderPlugin.secretSettings ?? [],
      secretName: 'aws-mock-credentials',
      clusterName: Cluster,
      leaderElectionId: AwsLease,
    };
    const secretFile = join(work, 'aws-secret.json');
    await writeFile(secretFile, JSON.stringify(credentialsSecret(release, 'nodewright')));
    await kubectl('apply', '-f', secretFile);
    const valuesFile = join(work, 'aws-values.json');
    await writeFile(valuesFile, JSON.stringify(mockCloudReleaseValues(release)));
    await helmRun([
      'upgrade',
      '--install',
      'nodewright',
      Charts.controller,
      '--namespace',
      'nodewright',
      '-f',
      providerValues('aws'),
      '-f',
      valuesFile,
    ]);
    await kubectl('-n', 'nodewright', 'rollout', 'status', 'deployment/nodewright', '--timeout=180s');
    controllerPod = await waitUntil(
      () => kubectl('-n', 'nodewright', 'get', 'lease', AwsLease, '-o', 'jsonpath={.spec.holderIdentity}'),
      (holder) => holder.startsWith('nodewright-'),
      { what: `a controller pod to hold Lease ${AwsLease}`, timeoutMs: 2 * Minute, intervalMs: 2000 },
    ).catch(async (error: unknown) => {
      throw new Error(
        `${(error as Error).message}\ncontroller log:\n${await kubectl('-n', 'nodewright', 'logs', 'deployment/nodewright', '--tail=40').catch(() => '?')}`,
      );
    });

    // Plays kubelet for the mock's instances: each running one registers as a kwok-managed Node.
    cluster = new ClientNodeCluster({
      kubeConfig: await kubeConfigFromFile(kubeconfig),
      fieldManager: 'nodewright-kubelet-harness',
      logger: silentLogger,
      clock: new SystemClock(),
      timers: new SystemTimers(),
    });
    harness = new KubeletHarness({
      cluster,
      source: mock.instances,
      timers: new SystemTimers(),
      bootDelayMs: 1000,
    });
    await harness.start();
  }, 15 * Minute);

  afterAll(async () => {
    harness?.stop();
    cluster?.close();
    await mock?.close();
  });

  it('runs as the chart Deployment, reads the mock credentials from the Secret, and launches instances for pods', async () => {
    const pod = await kubectlJson<{
      spec: { serviceAccountName: string; containers: { env?: { name: string; value?: string }[] }[] };
    }>('-n', 'nodewright', 'get', 'pod', controllerPod);
    expect(pod.spec.serviceAccountName).toBe('nodewright');
    const env = pod.spec.containers[0]?.env ?? [];
    expect(env.find((e) => e.name === 'NODEWRIGHT_SETTING_ENDPOINT')?.value).toBe(mock!.endpoint);
    // The key is in the Secret, not the pod spec.
    expect(env.find((e) => e.name === 'NODEWRIGHT_SETTING_ACCESS_KEY_ID')?.value).toBeUndefined();

    const manifests = join(work, 'aws-workload.json');
    const nodeClass = mockEC2NodeClass('default', Cluster);
    await writeFile(
      manifests,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
          nodeClass,
          {
            apiVersion: 'karpenter.sh/v1',
            kind: 'NodePool',
            metadata: { name: AwsPool },
            spec: {
              template: {
                spec: {
                  nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
                  requirements: [
                    { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
                    { key: 'karpenter.k8s.aws/instance-category', operator: 'In', values: ['c', 'm'] },
                    { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
                  ],
                },
              },
              disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfter: '30s' },
            },
          },
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            metadata: { name: AwsApp, namespace: 'default' },
            spec: {
              replicas: 2,
              selector: { matchLabels: { app: AwsApp } },
              template: {
                metadata: { labels: { app: AwsApp } },
                spec: {
                  nodeSelector: { 'karpenter.sh/nodepool': AwsPool },
                  terminationGracePeriodSeconds: 0,
                  // One pod per node, so an interrupted node leaves the other pod where it is.
                  affinity: {
                    podAntiAffinity: {
                      requiredDuringSchedulingIgnoredDuringExecution: [
                        {
                          topologyKey: 'kubernetes.io/hostname',
                          labelSelector: { matchLabels: { app: AwsApp } },
                        },
                      ],
                    },
                  },
                  containers: [
                    {
                      name: 'inflate',
                      image: 'registry.k8s.io/pause:3.10.2',
                      resources: { requests: { cpu: '1', memory: '1Gi' } },
                    },
                  ],
                },
              },
            },
          },
        ],
      }),
    );
    await kubectl('apply', '-f', manifests);
    await waitUntil(
      () =>
        kubectl(
          'get',
          'ec2nodeclass',
          'default',
          '-o',
          'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
        ),
      (ready) => ready === 'True',
      { what: 'EC2NodeClass default Ready', timeoutMs: 2 * Minute, intervalMs: 2000 },
    );
    const pods = await waitUntil(runningPods, (p) => p.length === 2, {
      what: `2 ${AwsApp} pods Running`,
      timeoutMs: 4 * Minute,
      intervalMs: 2000,
    });
    const claims = await liveClaims();
    for (const p of pods) {
      const node = await kubectlJson<KubeObject>('get', 'node', String(p.spec?.nodeName));
      expect(node.metadata.labels?.['karpenter.sh/nodepool']).toBe(AwsPool);
      const providerID = String(node.spec?.providerID);
      expect(providerID).toMatch(/^aws:\/\/\/[a-z0-9-]+\/i-[0-9a-f]+$/);
      expect(mock!.ec2.instances.get(instanceOf(providerID))?.state).toBe('running');
      expect(claims.map((c) => c.status?.providerID)).toContain(providerID);
      expect(['c', 'm']).toContain(node.metadata.labels?.['karpenter.k8s.aws/instance-category']);
    }
  });

  it('drains and replaces a node when the SQS queue says its instance is stopping', async () => {
    const before = await liveClaims();
    const claim = before[0]!;
    const instanceId = instanceOf(String(claim.status?.providerID));
    const oldNode = String(claim.status?.nodeName);
    mock!.pushInterruption(mock!.events.stateChange(instanceId, 'stopping'));
    await waitUntil(liveClaims, (cs) => cs.every((c) => c.metadata.name !== claim.metadata.name), {
      what: `NodeClaim ${claim.metadata.name} to go after the interruption message`,
      timeoutMs: 3 * Minute,
      intervalMs: 2000,
    });
    const pods = await waitUntil(
      runningPods,
      (p) => p.length === 2 && p.every((pod) => pod.spec?.nodeName !== oldNode),
      { what: `2 ${AwsApp} pods Running, none on ${oldNode}`, timeoutMs: 4 * Minute, intervalMs: 2000 },
    );
    expect(mock!.ec2.instances.get(instanceId)?.state).toMatch(/shutting-down|terminated/);
    const after = await liveClaims();
    expect(after.some((c) => !before.some((b) => b.metadata.name === c.metadata.name))).toBe(true);
    expect(pods.map((p) => p.spec?.nodeName)).not.toContain(oldNode);
  });

  it('terminates every instance it launched once the NodePool is deleted', async () => {
    await kubectl('delete', 'deployment', AwsApp);
    await kubectl('delete', 'nodepool', AwsPool, '--wait=false');
    await waitUntil(liveClaims, (cs) => cs.length === 0, {
      what: `the ${AwsPool} NodeClaims to go with their NodePool`,
      timeoutMs: 3 * Minute,
      intervalMs: 2000,
    });
    const launched = [...mock!.ec2.instances.values()];
    expect(launched.length).toBeGreaterThanOrEqual(3);
    expect(launched.filter((i) => i.state === 'pending' || i.state === 'running').map((i) => i.id)).toEqual(
      [],
    );
    const nodes = await kubectl('get', 'nodes', '-l', `karpenter.sh/nodepool=${AwsPool}`, '-o', 'name');
    expect(nodes).toBe('');
  });
});
