import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StartedK3sContainer } from '@testcontainers/k3s';
import { applyManifest } from './apply.js';
import { type DeploymentLike, deploymentAvailable, describePods, type PodLike } from './deployment-status.js';
import { k3sKubeconfigInput } from './k3s-kubeconfig.js';
import { KubeHttpClient } from './kube-http.js';
import { type ClusterConnection, renderKubeconfig } from './kubeconfig.js';
import { type KubeManifest, KWOK_IMAGE, kwokInClusterManifests } from './kwok-manifests.js';
import { DEFAULT_STAGE_OPTIONS, kwokStages, type StageOptions } from './kwok-stages.js';

/**
 * k3s carrying the Kubernetes release the binary cluster builds (v1.36.5), so both targets
 * serve the same API.
 */
export const K3S_IMAGE = 'rancher/k3s:v1.36.5-k3s1';

/**
 * The taint on k3s's own node. Without it the pods under test would be scheduled onto that
 * real node instead of staying Pending for the autoscaler; k3s documents this taint for
 * servers that run no workloads, and kwok's Deployment tolerates it.
 */
export const K3S_SERVER_TAINT = { key: 'CriticalAddonsOnly', value: 'true', effect: 'NoExecute' } as const;

/** What a test run needs from any launcher; startCluster's handle has these fields too. */
export interface LaunchedCluster {
  /** A self-contained JSON kubeconfig with admin credentials. */
  kubeconfigPath: string;
  server: string;
  connection: ClusterConnection;
  /** Stop exactly once; later calls return the same promise. */
  stop(): Promise<void>;
}

/** How to start a k3s cluster; every field has a default suited to the conformance suite. */
export interface StartK3sClusterOptions {
  /** Default K3S_IMAGE. */
  image?: string;
  /** Default KWOK_IMAGE (pulled by k3s's containerd from registry.k8s.io). */
  kwokImage?: string;
  /** Parent of the directory holding the kubeconfig. Default os.tmpdir(). */
  baseDir?: string;
  /** kwok's node Lease. Default 40, as the binary cluster. */
  nodeLeaseDurationSeconds?: number;
  /** kube-controller-manager's grace period. Default: the lease; must not be shorter. */
  nodeMonitorGracePeriodSeconds?: number;
  /** Pod IPs kwok hands out. Default 10.0.0.0/16 (k3s itself uses 10.42/16 and 10.43/16). */
  podCidr?: string;
  /** Timing of the simulated kubelet behaviour, as startCluster's. */
  stages?: Partial<Omit<StageOptions, 'kubeletVersion'>>;
  /** Give up after this long, image pulls included. Default 600 s. */
  startTimeoutMs?: number;
  /** Keep the kubeconfig directory after stop(). Default false. */
  keepDir?: boolean;
  /** Progress lines; default: written to stderr. */
  log?: (line: string) => void;
}

/** A running k3s container with kwok installed. */
export interface K3sClusterHandle extends LaunchedCluster {
  /** Holds the kubeconfig. */
  dir: string;
  containerId: string;
  /** Wall time from asking for the container to ready, image pulls included. */
  startupMs: number;
}

/** Seams for tests; production uses testcontainers. */
export interface K3sClusterDeps {
  /** Where the container engine's published ports are reached; rejects when there is no engine. */
  runtimeHost?: () => Promise<string>;
}

// Loaded on use, not at the top: the default (binary) target never needs testcontainers.
async function testcontainersRuntimeHost(): Promise<string> {
  const { getContainerRuntimeClient } = await import('testcontainers');
  return (await getContainerRuntimeClient()).info.containerRuntime.host;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1']);

/**
 * k3s server flags. Pure. Leaves out the add-ons the suite has no use for (each would pull
 * an image and run pods the autoscaler could see), taints the server node, and gives the
 * controller manager the binary cluster's node-monitor settings so nodes go NotReady on
 * the same schedule. `host` is where testcontainers reaches the engine; when it is not
 * local it is added to the serving certificate.
 */
export function k3sServerCommand(options: { host: string; nodeMonitorGracePeriodSeconds: number }): string[] {
  const taint = K3S_SERVER_TAINT;
  return [
    'server',
    '--disable=traefik,servicelb,metrics-server,local-storage,coredns',
    `--node-taint=${taint.key}=${taint.value}:${taint.effect}`,
    `--kube-controller-manager-arg=node-monitor-grace-period=${options.nodeMonitorGracePeriodSeconds}s`,
    '--kube-controller-manager-arg=node-monitor-period=5s',
    ...(LOCAL_HOSTS.has(options.host) ? [] : [`--tls-san=${options.host}`]),
  ];
}

/** The error for a missing engine; says what to do instead. */
export function noDockerEngineError(cause: unknown): Error {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new Error(
    `the k3s cluster (NODEWRIGHT_CLUSTER=k3s) needs a Docker engine, and testcontainers found none ` +
      `(${detail}). Start Docker or point DOCKER_HOST at an engine, or run on the binary cluster ` +
      '(unset NODEWRIGHT_CLUSTER).',
    { cause },
  );
}

interface Poller {
  until(what: string, check: () => Promise<boolean>, progress?: () => Promise<string>): Promise<void>;
}

function poller(deadline: number, log: (line: string) => void): Poller {
  return {
    async until(what, check, progress) {
      let lastReport = Date.now();
      let lastLine = '';
      for (;;) {
        if (await check()) return;
        if (Date.now() > deadline) {
          const state = progress ? `; last seen: ${await progress().catch((e: Error) => e.message)}` : '';
          throw new Error(`timed out waiting for ${what}${state}`);
        }
        if (progress && Date.now() - lastReport >= 10_000) {
          lastReport = Date.now();
          const line = await progress().catch((e: Error) => e.message);
          // Repeating an unchanged state adds nothing but noise.
          if (line !== lastLine) log(`waiting for ${what}: ${line}`);
          lastLine = line;
        }
        await sleep(500);
      }
    },
  };
}

/**
 * Starts k3s in a container through @testcontainers/k3s, writes a JSON kubeconfig for it,
 * installs kwok (RBAC, the Stage CRD, the binary cluster's stages, the controller as a
 * Deployment) and resolves once kwok is available and the default ServiceAccount exists.
 * Throws at once, naming the alternatives, when no Docker engine is reachable. The
 * container is removed by stop(), or by testcontainers' reaper if this process dies first.
 */
export async function startK3sCluster(
  options: StartK3sClusterOptions = {},
  deps: K3sClusterDeps = {},
): Promise<K3sClusterHandle> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[k3s] ${line}\n`));
  const lease = options.nodeLeaseDurationSeconds ?? 40;
  const grace = options.nodeMonitorGracePeriodSeconds ?? lease;
  if (grace < lease) {
    throw new Error(
      `nodeMonitorGracePeriodSeconds (${grace}) is shorter than kwok's node lease (${lease}s): ` +
        'nodes would turn NotReady between renewals',
    );
  }
  const runtimeHost = deps.runtimeHost ?? testcontainersRuntimeHost;
  let host: string;
  try {
    host = await runtimeHost();
  } catch (error) {
    throw noDockerEngineError(error);
  }
  const { K3sContainer } = await import('@testcontainers/k3s');

  const image = options.image ?? K3S_IMAGE;
  const kwokImage = options.kwokImage ?? KWOK_IMAGE;
  const startedAt = Date.now();
  const timeoutMs = options.startTimeoutMs ?? 600_000;
  const wait = poller(startedAt + timeoutMs, log);
  const dir = await mkdtemp(join(options.baseDir ?? tmpdir(), 'nodewright-k3s-'));

  log(`starting ${image} on ${host} (the image is pulled on first use)`);
  let container: StartedK3sContainer | undefined;
  let client: KubeHttpClient | undefined;
  try {
    container = await new K3sContainer(image)
      .withCommand(k3sServerCommand({ host, nodeMonitorGracePeriodSeconds: grace }))
      .withStartupTimeout(timeoutMs)
      .start();
    const input = k3sKubeconfigInput(container.getKubeConfig(), 'nodewright-k3s');
    const kubeconfigPath = join(dir, 'kubeconfig');
    await writeFile(kubeconfigPath, renderKubeconfig(input), { mode: 0o600 });
    const connection: ClusterConnection = {
      server: input.server,
      ca: input.caPem,
      cert: input.certPem,
      key: input.keyPem,
    };
    log(`container ${container.getId().slice(0, 12)} up after ${seconds(startedAt)}; API ${input.server}`);
    const api = new KubeHttpClient(connection);
    client = api;

    await wait.until('the API server (/readyz)', async () => {
      try {
        return (await api.get('/readyz')).status === 200;
      } catch {
        return false;
      }
    });
    const version = await api.get<{ gitVersion?: string }>('/version');
    const manifests = kwokInClusterManifests({
      stages: kwokStages({
        ...DEFAULT_STAGE_OPTIONS,
        ...options.stages,
        kubeletVersion: version.body.gitVersion ?? 'v0.0.0',
      }),
      image: kwokImage,
      podCidr: options.podCidr ?? '10.0.0.0/16',
      nodeLeaseDurationSeconds: lease,
      tolerateTaintKeys: [K3S_SERVER_TAINT.key],
    });

    log(`installing kwok (${kwokImage}) into Kubernetes ${version.body.gitVersion ?? '?'}`);
    for (const manifest of [manifests.crd, ...manifests.rbac]) await applyManifest(api, manifest);
    await wait.until('the Stage CRD to be Established', async () => {
      const crd = await api.get<{ status?: { conditions?: { type: string; status: string }[] } }>(
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${manifests.crd.metadata.name}`,
      );
      return (
        crd.status === 200 &&
        !!crd.body.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')
      );
    });
    for (const stage of manifests.stages) await applyEventually(wait, api, stage);
    await applyManifest(api, manifests.deployment);

    const { name, namespace } = manifests.deployment.metadata;
    const selector = encodeURIComponent(
      Object.entries(
        (manifests.deployment.spec as { selector: { matchLabels: Record<string, string> } }).selector
          .matchLabels,
      )
        .map(([k, v]) => `${k}=${v}`)
        .join(','),
    );
    const kwokPods = async (): Promise<string> => {
      const pods = await api.get<{ items?: PodLike[] }>(
        `/api/v1/namespaces/${namespace}/pods?labelSelector=${selector}`,
      );
      return describePods(pods.body.items ?? []);
    };
    await wait.until(
      `the kwok Deployment ${namespace}/${name} to be available`,
      async () =>
        deploymentAvailable(
          (await api.get<DeploymentLike>(`/apis/apps/v1/namespaces/${namespace}/deployments/${name}`)).body,
        ),
      kwokPods,
    );
    // ServiceAccount admission rejects Pods until the token controller made this one.
    await wait.until(
      'the default ServiceAccount',
      async () => (await api.get('/api/v1/namespaces/default/serviceaccounts/default')).status === 200,
    );
    api.close();
    client = undefined;

    const startupMs = Date.now() - startedAt;
    log(`ready in ${seconds(startedAt)}: ${input.server} (KUBECONFIG=${kubeconfigPath})`);
    const started = container;
    let stopped: Promise<void> | undefined;
    return {
      kubeconfigPath,
      server: input.server,
      connection,
      dir,
      containerId: started.getId(),
      startupMs,
      stop() {
        stopped ??= (async () => {
          await started.stop();
          if (!options.keepDir) await rm(dir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
  } catch (error) {
    client?.close();
    await container?.stop().catch(() => {});
    await rm(dir, { recursive: true, force: true });
    throw new Error(`k3s cluster start failed after ${seconds(startedAt)}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

// A CR is served a moment after its CRD reports Established: retry until then.
async function applyEventually(wait: Poller, api: KubeHttpClient, manifest: KubeManifest): Promise<void> {
  let lastError = '';
  await wait
    .until(`${manifest.kind} ${manifest.metadata.name} to be accepted`, async () => {
      try {
        await applyManifest(api, manifest);
        return true;
      } catch (error) {
        lastError = (error as Error).message;
        return false;
      }
    })
    .catch((error: Error) => {
      throw new Error(`${error.message} (last answer: ${lastError})`);
    });
}

const seconds = (since: number): string => `${((Date.now() - since) / 1000).toFixed(1)}s`;
