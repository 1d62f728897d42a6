import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Deployments, Nodes } from '@nodewright/core/kube';
import { apiserverRequests, requestsBetween } from './apiserver-requests.js';
import { ControllerProcess } from './controller-process.js';
import type { E2EEnvironment } from './environment.js';
import { applyKwokPool } from './kwok-pool.js';
import { deploymentManifest } from './manifests.js';
import { isLive, type Observed } from './observe.js';
import { OperatorWatch, type OperatorWatchFigures } from './operator-watch.js';

/** The KWOK type every load node is: 4 vCPU, so `podsPerNode` sizes the pods. */
export const LoadNodeType = 'c-4x-amd64-linux';
// Its allocatable CPU: 4 vCPU less the KWOK catalog's kube-reserved 80m (providers/kwok's
// kubeReservedMilliCpu(4); not imported, as the suite's entry loads no provider package).
const LoadNodeAllocatableMilliCpu = 3920;

/**
 * The binary cluster's client rates for a load run. kube-controller-manager's default (20 QPS,
 * burst 30) lets its ReplicaSet controller create about 20 pods a second, so 20,000 pods took
 * over 15 minutes to exist (its log: "client-side throttling", up to 10 s per pod POST) and the
 * controller never met them all pending at once. kube-scheduler's (50 QPS) bounds the bindings
 * alike.
 */
export const LoadComponentArgs = {
  'kube-controller-manager': ['--kube-api-qps=300', '--kube-api-burst=600'],
  'kube-scheduler': ['--kube-api-qps=300', '--kube-api-burst=600'],
} as const;

/** The size of one load run. */
export interface OperatorLoadOptions {
  /** Pods of one Deployment, all pending at once. */
  readonly pods: number;
  /** How many pods fill one node: sets each pod's CPU request. */
  readonly podsPerNode: number;
  /** After all run, the Deployment is scaled to this fraction, leaving the nodes to consolidate. */
  readonly keepFraction: number;
  readonly runningTimeoutMs: number;
  /** How long to let consolidation work before the figures are taken. */
  readonly consolidateTimeoutMs: number;
  readonly progress: (line: string) => void;
}

/** What one load run measured; the watch's figures cover both phases. */
export interface OperatorLoadFigures extends OperatorWatchFigures {
  readonly pods: number;
  readonly podCpu: string;
  readonly toRunningMs: number | undefined;
  readonly nodesAtPeak: number;
  readonly podsKept: number;
  /** The node count consolidation should reach: the kept pods at `podsPerNode`. */
  readonly consolidationTarget: number;
  readonly nodesAfter: number;
  /** From the scale-down until at most 1.25 x the target were left; undefined when not reached. */
  readonly toConsolidatedMs: number | undefined;
  readonly controllerCpuSeconds: number;
  readonly controllerPeakRssMb: number;
  readonly apiserverRequests: { readonly scaleOut: string; readonly scaleIn: string };
  /** How the controller ended, when it did during the run. */
  readonly controllerExit?: string;
}

const Name = 'load';

/** The Lease the load controller leads through (`--leader-election-id`, in kube-system). */
export const LoadLeaseName = 'nodewright-operator-load';

/**
 * Starts the built controller (`binPath`, KWOK provider) as the load run's only replica, its log
 * in the environment's work directory, and resolves once it leads.
 */
export async function startLoadController(
  env: E2EEnvironment,
  binPath: string,
  nodeArgs: readonly string[] = [],
): Promise<ControllerProcess> {
  const controller = ControllerProcess.start({
    binPath,
    nodeArgs,
    provider: 'kwok',
    kubeconfigPath: env.kubeconfigPath,
    identity: 'operator-load',
    leaderElectionId: LoadLeaseName,
    logFile: join(env.workDir, 'controller.log'),
    keepEntries: 5_000,
    registry: env.processes,
  });
  try {
    await controller.waitForLog((e) => e.message === 'became leader', 'leadership', 120_000);
  } catch (err) {
    await controller.stop();
    throw err;
  }
  return controller;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface DeploymentStatus extends Observed {
  readonly status?: Observed['status'] & { readonly availableReplicas?: number };
}

/**
 * Loads a running, leading controller (KWOK provider) on a real control plane with one burst of
 * `pods` pending pods on KWOK nodes of one type, waits until all run, then scales the workload
 * down and lets consolidation take the nodes apart, while an OperatorWatch probes, reads the
 * Lease and scrapes the event-loop delay throughout. Progress goes to `options.progress`.
 */
export async function runOperatorLoad(
  env: E2EEnvironment,
  controller: ControllerProcess,
  options: OperatorLoadOptions,
): Promise<OperatorLoadFigures> {
  const { progress } = options;
  const podMilliCpu = Math.floor(LoadNodeAllocatableMilliCpu / options.podsPerNode);
  const podCpu = `${podMilliCpu}m`;
  await applyKwokPool(
    env.cluster,
    {
      name: Name,
      nodeClassSpec: {},
      requirements: [
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: [LoadNodeType] },
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
      ],
      consolidateAfter: '0s',
    },
    'operator-load',
  );
  const watch = await OperatorWatch.start(controller, env.cluster, {
    lease: { namespace: 'kube-system', name: LoadLeaseName },
  });
  const liveNodes = async () =>
    (
      await env.cluster.list<Observed>(Nodes, { labelSelector: `karpenter.sh/nodepool=${Name}` })
    ).items.filter(isLive).length;
  const available = async () =>
    (await env.cluster.get<DeploymentStatus>(Deployments, { namespace: env.namespace, name: Name })).status
      ?.availableReplicas ?? 0;
  const exited = () => (controller.exit ? JSON.stringify(controller.exit) : undefined);

  const beforeOut = await apiserverRequests(env.connection);
  const outStart = performance.now();
  await env.cluster.create(
    Deployments,
    deploymentManifest({
      name: Name,
      namespace: env.namespace,
      replicas: options.pods,
      nodePool: Name,
      requests: { cpu: podCpu, memory: '64Mi' },
    }),
  );
  progress(`${options.pods} pods of ${podCpu} pending on ${LoadNodeType} nodes`);
  let toRunningMs: number | undefined;
  let nodesAtPeak = 0;
  let lastReport = 0;
  while (performance.now() - outStart < options.runningTimeoutMs && exited() === undefined) {
    const [running, nodes] = await Promise.all([available(), liveNodes()]);
    nodesAtPeak = Math.max(nodesAtPeak, nodes);
    if (running >= options.pods) {
      toRunningMs = performance.now() - outStart;
      break;
    }
    if (performance.now() - lastReport > 15_000) {
      lastReport = performance.now();
      progress(
        `${running}/${options.pods} running on ${nodes} nodes after ${((lastReport - outStart) / 1000).toFixed(0)} s`,
      );
    }
    await sleep(2000);
  }
  nodesAtPeak = Math.max(nodesAtPeak, await liveNodes());
  const stopped = exited();
  progress(
    stopped !== undefined
      ? `the controller exited (${stopped}) with ${await available()} of ${options.pods} running`
      : toRunningMs === undefined
        ? `not all running within ${options.runningTimeoutMs / 1000} s (${await available()} of ${options.pods})`
        : `all ${options.pods} running on ${nodesAtPeak} nodes after ${(toRunningMs / 1000).toFixed(1)} s`,
  );
  const afterOut = await apiserverRequests(env.connection);

  const podsKept = Math.max(1, Math.round(options.pods * options.keepFraction));
  const consolidationTarget = Math.ceil(podsKept / options.podsPerNode);
  const inStart = performance.now();
  await env.cluster.patch(
    Deployments,
    { namespace: env.namespace, name: Name },
    { spec: { replicas: podsKept } },
  );
  progress(`scaled to ${podsKept} pods: consolidation towards ${consolidationTarget} nodes`);
  let toConsolidatedMs: number | undefined;
  let nodesAfter = nodesAtPeak;
  lastReport = performance.now();
  while (performance.now() - inStart < options.consolidateTimeoutMs && exited() === undefined) {
    nodesAfter = await liveNodes();
    if (nodesAfter <= Math.ceil(consolidationTarget * 1.25)) {
      toConsolidatedMs = performance.now() - inStart;
      break;
    }
    if (performance.now() - lastReport > 15_000) {
      lastReport = performance.now();
      progress(`${nodesAfter} nodes after ${((lastReport - inStart) / 1000).toFixed(0)} s`);
    }
    await sleep(2000);
  }
  const afterIn = await apiserverRequests(env.connection);
  const memory = controller.exit ? undefined : await controller.memory().catch(() => undefined);
  const cpu = controller.exit ? 0 : await controller.cpuSeconds().catch(() => 0);
  const watched = await watch.stop();
  const exit = exited();
  return {
    ...watched,
    pods: options.pods,
    podCpu,
    toRunningMs,
    nodesAtPeak,
    podsKept,
    consolidationTarget,
    nodesAfter,
    toConsolidatedMs,
    controllerCpuSeconds: cpu,
    controllerPeakRssMb: (memory?.peakRssBytes ?? 0) / 1e6,
    apiserverRequests: {
      scaleOut: requestsBetween(beforeOut, afterOut),
      scaleIn: requestsBetween(afterOut, afterIn),
    },
    ...(exit === undefined ? {} : { controllerExit: exit }),
  };
}
