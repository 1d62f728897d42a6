import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KubeletHarness, type StartupTaintRemoval } from '@nodewright/conformance/harness';
import { SystemTimers } from '@nodewright/core/clock';
import { Nodes, Pods, type ResourceType, resourceType, type UntypedObject } from '@nodewright/core/kube';
import { decodeManifests } from '@nodewright/core/manifests';
import { waitUntil } from '../wait-until.js';
import { ControllerProcess } from './controller-process.js';
import { type E2EEnvironment, startE2EEnvironment } from './environment.js';
import { AppLabel, deploymentManifest } from './manifests.js';
import type { Observed } from './observe.js';
import { poolTolerations, type TemplateTaint, templateTaints } from './pool-tolerations.js';
import type { MockCloud } from './target.js';

/** karpenter.sh/v1 NodePool, as the example files spell it. */
export const NodePoolType = resourceType({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  namespaced: false,
  statusSubresource: true,
});
/** karpenter.sh/v1 NodeClaim. */
export const NodeClaimType = resourceType({
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodeClaim',
  namespaced: false,
  statusSubresource: true,
});
/** The field manager the example tests apply with. */
export const ExampleManager = { fieldManager: 'nodewright-e2e', force: true } as const;

/** What an examples-on-the-mock e2e file runs: a control plane, a mock cloud and a controller for it. */
export interface ExampleClusterOptions {
  /** Names the control plane, the controller's identity and its log file. */
  readonly name: string;
  /** `nodewright controller --provider`. */
  readonly provider: string;
  /** The mock cloud, already started; stopped with the cluster. */
  readonly cloud: MockCloud;
  /** The repository root (examples are read and the CLI run from it). */
  readonly repoRoot: string;
  /** Startup taints a simulated node agent DaemonSet lifts (e.g. a GPU driver's). */
  readonly startupTaintRemoval?: StartupTaintRemoval;
}

/** Extra tolerations and resources of an example pool's Deployment. */
export interface ExampleDeploymentExtra {
  /** Default: the pool's template taints (poolTolerations), as applied by applyExample. */
  readonly tolerations?: readonly object[];
  /** Requested and limited alike (an extended resource must be). */
  readonly resources?: Readonly<Record<string, string>>;
}

/**
 * A control plane of its own with a mock cloud's VMs booted by the kubelet harness and the
 * built controller leading against it: the setup every provider's "examples on the mock" e2e
 * file shares, with the lookups those files make.
 */
export interface ExampleCluster {
  readonly env: E2EEnvironment;
  readonly harness: KubeletHarness;
  readonly controller: ControllerProcess;
  wait<T>(what: string, timeoutMs: number, probe: () => Promise<T>, done: (value: T) => boolean): Promise<T>;
  list(type: ResourceType, selector: string, namespace?: string): Promise<Observed[]>;
  /** The pods of an example Deployment. */
  podsOf(app: string): Promise<Observed[]>;
  /** The NodeClaims of a NodePool. */
  claimsOf(pool: string): Promise<Observed[]>;
  /** The Node a pod is bound to. */
  nodeOf(pod: Observed): Promise<Observed>;
  /**
   * Applies every manifest of an example file (relative to the repository root): NodePools,
   * and the provider's NodeClasses as `nodeClassType`. A NodeClass already present is left as
   * the first file applied it, as in a real cluster where two files name the same one.
   */
  applyExample(path: string, nodeClassType: ResourceType): Promise<void>;
  /** A Deployment for the example pool, one pod per node (an interrupted node's pod then needs a new node). */
  exampleDeployment(pool: string, replicas: number, extra?: ExampleDeploymentExtra): UntypedObject;
  stop(): Promise<void>;
}

/** Starts the control plane, the kubelet harness over the cloud's VMs and the controller, and waits until it is ready. */
export async function startExampleCluster(options: ExampleClusterOptions): Promise<ExampleCluster> {
  const env = await startE2EEnvironment({ name: options.name });
  const { cloud } = options;
  const harness = new KubeletHarness({
    cluster: env.cluster,
    source: cloud.source,
    timers: new SystemTimers(),
    bootDelayMs: cloud.bootDelayMs,
    ...(options.startupTaintRemoval ? { startupTaintRemoval: options.startupTaintRemoval } : {}),
  });
  await harness.start();
  const controller = ControllerProcess.start({
    binPath: join(options.repoRoot, 'packages/cli/dist/bin.js'),
    provider: options.provider,
    kubeconfigPath: env.kubeconfigPath,
    identity: options.name,
    leaderElectionId: `nodewright-e2e-${options.name}`,
    settings: cloud.settings,
    logFile: join(env.workDir, `${options.name}.log`),
    registry: env.processes,
  });
  const wait = <T>(what: string, timeoutMs: number, probe: () => Promise<T>, done: (value: T) => boolean) =>
    waitUntil(probe, done, { what, timeoutMs, intervalMs: 500 });
  // Template taints of the NodePools applyExample applied, by name: exampleDeployment tolerates them.
  const poolTaints = new Map<string, readonly TemplateTaint[]>();
  const list = async (type: ResourceType, selector: string, namespace?: string) =>
    (await env.cluster.list<Observed>(type, { labelSelector: selector, ...(namespace ? { namespace } : {}) }))
      .items;
  const cluster: ExampleCluster = {
    env,
    harness,
    controller,
    wait,
    list,
    podsOf: (app) => list(Pods, `${AppLabel}=${app}`, env.namespace),
    claimsOf: (pool) => list(NodeClaimType, `karpenter.sh/nodepool=${pool}`),
    nodeOf: (pod) =>
      env.cluster.get<Observed>(Nodes, { name: String((pod.spec as { nodeName?: string })?.nodeName) }),
    async applyExample(path, nodeClassType) {
      const set = decodeManifests(path, await readFile(join(options.repoRoot, path), 'utf8'));
      if (set.errors.length > 0) throw new Error(`${path}: ${JSON.stringify(set.errors)}`);
      for (const m of set.manifests) {
        const isPool = m.kind === 'NodePool';
        const type = isPool ? NodePoolType : nodeClassType;
        const name = (m.object as UntypedObject).metadata?.name;
        if (isPool && name !== undefined) poolTaints.set(name, templateTaints(m.object));
        if (isPool || (await list(type, '')).every((o) => o.metadata.name !== name)) {
          await env.cluster.apply(type, m.object as UntypedObject, ExampleManager);
        }
      }
    },
    exampleDeployment(pool, replicas, extra = {}) {
      const d = deploymentManifest({
        name: pool,
        namespace: env.namespace,
        replicas,
        nodePool: pool,
        requests: { cpu: '500m', memory: '512Mi', ...extra.resources },
        onePodPerNode: true,
      }) as unknown as {
        spec: { template: { spec: { tolerations?: unknown; containers: { resources: object }[] } } };
      };
      const spec = d.spec.template.spec;
      const taints = poolTaints.get(pool);
      if (extra.tolerations === undefined && taints === undefined) {
        throw new Error(`exampleDeployment(${pool}): no NodePool ${pool} applied with applyExample`);
      }
      spec.tolerations = extra.tolerations ?? poolTolerations(taints ?? []);
      if (extra.resources !== undefined && Object.keys(extra.resources).length > 0) {
        for (const c of spec.containers) c.resources = { ...c.resources, limits: { ...extra.resources } };
      }
      return d as unknown as UntypedObject;
    },
    async stop() {
      await controller.stop();
      harness.stop();
      await cloud.stop();
      await env.stop();
    },
  };
  try {
    await controller.waitForLog((e) => e.message === 'became leader', 'the controller to lead', 60_000);
    await wait(
      'the controller ready (CRDs installed, caches synced)',
      60_000,
      () => controller.http('health', '/readyz').catch(() => ({ status: 0, body: '' })),
      (r) => r.status === 200,
    );
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  return cluster;
}
