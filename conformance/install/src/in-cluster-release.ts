import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KubeletHarness, type MockInstanceSource } from '@nodewright/conformance/harness';
import { waitUntil } from '@nodewright/conformance/suite';
import { SystemClock, SystemTimers } from '@nodewright/core/clock';
import { ClientNodeCluster, kubeConfigFromFile, silentLogger } from '@nodewright/core/kube';
import { type ChartProvider, controllerInstallArgs, ensureHelm, runHelm } from './helm.js';
import { credentialsSecret, type MockCloudRelease, mockCloudReleaseValues } from './mock-cloud-release.js';

const Minute = 60_000;
/** The release and namespace the install guide uses, and the tests after it. */
const Release = 'nodewright';

/** A kind cluster the test drives with kubectl and helm. */
export interface KindSession {
  readonly kubeconfig: string;
  /** A directory for the files handed to kubectl and helm. */
  readonly work: string;
  /** Runs kubectl on the cluster and resolves to its stdout; throws on a non-zero exit. */
  kubectl(...args: string[]): Promise<string>;
}

/**
 * Replaces the controller release with one of `provider` pointed at a mock cloud: uninstalls
 * the running release (its NodePools must be gone already, or their NodeClaims would be left
 * with nobody to finalise them), stores the secret settings in a Secret, installs the chart with
 * the provider's values file and `mockCloudReleaseValues`, and waits until a pod of the new
 * Deployment holds the release's Lease. Resolves to that pod's name; a timeout carries the
 * controller's last log lines.
 */
export async function swapControllerRelease(
  session: KindSession,
  provider: ChartProvider,
  release: MockCloudRelease,
): Promise<string> {
  const helm = await ensureHelm();
  const helmRun = async (args: string[]) => {
    const result = await runHelm(
      helm,
      [...args, '--kubeconfig', session.kubeconfig],
      join(session.work, 'helm'),
    );
    if (result.code !== 0) throw new Error(`helm ${args.join(' ')} failed: ${result.stderr}`);
  };
  const deployments = await session.kubectl('-n', Release, 'get', 'deployment', '-o', 'name');
  if (deployments.split('\n').includes(`deployment.apps/${Release}`)) {
    await helmRun(['uninstall', Release, '--namespace', Release, '--wait']);
  }
  if (release.secretSettings.some((key) => release.settings[key] !== undefined)) {
    const secretFile = join(session.work, `${provider}-secret.json`);
    await writeFile(secretFile, JSON.stringify(credentialsSecret(release, Release)));
    await session.kubectl('apply', '-f', secretFile);
  }
  const valuesFile = join(session.work, `${provider}-values.json`);
  await writeFile(valuesFile, JSON.stringify(mockCloudReleaseValues(release)));
  await helmRun(controllerInstallArgs(Release, provider, valuesFile));
  await session.kubectl('-n', Release, 'rollout', 'status', `deployment/${Release}`, '--timeout=180s');
  const holder = () =>
    session.kubectl(
      '-n',
      Release,
      'get',
      'lease',
      release.leaderElectionId,
      '-o',
      'jsonpath={.spec.holderIdentity}',
    );
  return waitUntil(holder, (h) => h.startsWith(`${Release}-`), {
    what: `a ${provider} controller pod to hold Lease ${release.leaderElectionId}`,
    timeoutMs: 2 * Minute,
    intervalMs: 2000,
  }).catch(async (error: unknown) => {
    const log = await session
      .kubectl('-n', Release, 'logs', `deployment/${Release}`, '--tail=40')
      .catch(() => '(no log)');
    throw new Error(`${(error as Error).message}\ncontroller log:\n${log}`);
  });
}

/** The kubelet harness over a mock cloud's instances, on the kind cluster; `stop` ends both. */
export async function startKindKubelets(
  kubeconfig: string,
  source: MockInstanceSource,
): Promise<{ stop(): void }> {
  const cluster = new ClientNodeCluster({
    kubeConfig: await kubeConfigFromFile(kubeconfig),
    fieldManager: 'nodewright-kubelet-harness',
    logger: silentLogger,
    clock: new SystemClock(),
    timers: new SystemTimers(),
  });
  // Each running instance registers as a kwok-managed Node a second after it is first seen.
  const harness = new KubeletHarness({ cluster, source, timers: new SystemTimers(), bootDelayMs: 1000 });
  await harness.start();
  return {
    stop() {
      harness.stop();
      cluster.close();
    },
  };
}

/** What `poolWorkload` makes: a NodePool and the Deployment that can only run on its nodes. */
export interface PoolWorkload {
  readonly pool: string;
  readonly app: string;
  readonly nodeClassRef: { readonly group: string; readonly kind: string; readonly name: string };
  readonly requirements: readonly { key: string; operator: string; values: string[] }[];
  readonly replicas: number;
}

/**
 * A NodePool and a Deployment of `replicas` pods (1 CPU, 1 GiB, one per node) selecting that
 * NodePool, so they never land on the kind node and each one is a node of the pool. Pure.
 */
export function poolWorkload(w: PoolWorkload): Record<string, unknown>[] {
  return [
    {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: w.pool },
      spec: {
        template: { spec: { nodeClassRef: w.nodeClassRef, requirements: w.requirements } },
        disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfter: '30s' },
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: w.app, namespace: 'default' },
      spec: {
        replicas: w.replicas,
        selector: { matchLabels: { app: w.app } },
        template: {
          metadata: { labels: { app: w.app } },
          spec: {
            nodeSelector: { 'karpenter.sh/nodepool': w.pool },
            terminationGracePeriodSeconds: 0,
            // One pod per node, so a node taken away leaves the other pod where it is.
            affinity: {
              podAntiAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: [
                  { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: w.app } } },
                ],
              },
            },
            containers: [
              {
                name: 'inflate',
                // Imported with the node image, should a pod ever land on the kind node.
                image: 'registry.k8s.io/pause:3.10.2',
                resources: { requests: { cpu: '1', memory: '1Gi' } },
              },
            ],
          },
        },
      },
    },
  ];
}

/** `kubectl apply` of objects as one List, written to the session's directory under `name`. */
export async function applyObjects(
  session: KindSession,
  name: string,
  items: readonly Record<string, unknown>[],
): Promise<void> {
  const file = join(session.work, `${name}.json`);
  await writeFile(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
  await session.kubectl('apply', '-f', file);
}
