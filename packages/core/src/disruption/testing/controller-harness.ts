import { pino } from 'pino';
import { Registry } from 'prom-client';
import type { Node } from '../../apis/kubernetes/node.js';
import { Taints } from '../../apis/labels.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { UntypedObject } from '../../kube/object.js';
import { Deployments, NodeClaims, NodePools, Nodes } from '../../kube/resource-types.js';
import { isConditionTrue } from '../../lifecycle/conditions.js';
import { lifecycleMetrics } from '../../lifecycle/metrics.js';
import { lifecycleControllers, provisioningControllers } from '../../operator/controllers.js';
import { RecordingEventRecorder } from '../../operator/runtime/event-recorder.js';
import { Manager } from '../../operator/runtime/manager.js';
import { hasTaint } from '../../scheduling/taints/tolerations.js';
import type { SimulationEnvironmentOptions } from '../../simulation/environment/simulation-environment.js';
import { SimulationEnvironment } from '../../simulation/environment/simulation-environment.js';
import { deploymentObject } from '../../simulation/scenario/scenario-objects.js';
import { ClusterState } from '../../state/cluster-state.js';
import { fakeInstanceTypes } from '../../testing/fake-instance-types.js';
import {
  DisruptionController,
  type DisruptionControllerOptions,
} from '../controller/disruption-controller.js';
import { disruptionMetrics } from '../controller/metrics.js';

/** A Deployment the harness creates: its name, replicas and per-pod requests. */
export interface HarnessDeployment {
  readonly name: string;
  readonly replicas: number;
  readonly requests?: Readonly<Record<string, string>>;
  /** A topology key its pods may not share with each other (`kubernetes.io/hostname`: one per node). */
  readonly antiAffinity?: string;
}

/** What the harness is built from; every field has a default. */
export interface ControllerHarnessOptions {
  /** Merged into the NodePool's `spec.disruption` (default WhenEmptyOrUnderutilized, consolidateAfter 0s). */
  readonly disruption?: Record<string, unknown>;
  /** The NodePool's requirements; default on-demand only. */
  readonly requirements?: readonly { key: string; operator: string; values?: string[] }[];
  /** Default one `web` deployment of 3 pods of 1 CPU / 1Gi. */
  readonly deployments?: readonly HarnessDeployment[];
  readonly controller?: DisruptionControllerOptions;
  readonly cloud?: SimulationEnvironmentOptions['cloud'];
}

/** The default NodePool's requirement: on-demand only (spot-to-spot consolidation has extra rules). */
export const OnDemandOnly = { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] };

/** True when the node carries the `karpenter.sh/disrupted:NoSchedule` taint. */
export const hasDisruptedTaint = (n: Pick<Node, 'spec'>): boolean =>
  hasTaint(n.spec.taints, Taints.Disrupted);

/** True when the claim's Initialized condition is True. */
export const isInitialized = (c: Pick<NodeClaim, 'status'>): boolean =>
  isConditionTrue(c.status?.conditions, 'Initialized');

/**
 * The real provisioning, lifecycle and disruption controllers on one Manager over a
 * SimulationEnvironment (in-memory cluster with binder, workload controllers and kubelets; the
 * simulated cloud; a stepped clock; Nodes register 20 s after launch). It creates a NodePool
 * `default` and the deployments, then runs two minutes so they are scheduled. Logs are kept as
 * parsed JSON lines in `logs`.
 */
export async function startControllerHarness(options: ControllerHarnessOptions = {}) {
  const env = new SimulationEnvironment({
    catalog: fakeInstanceTypes(),
    cluster: { kinds: [NodePools, NodeClaims] },
    registration: { bootDelay: 20_000 },
    ...(options.cloud === undefined ? {} : { cloud: options.cloud }),
  });
  const registry = new Registry();
  const events = new RecordingEventRecorder();
  const logs: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });
  const state = new ClusterState({ clock: env.clock });
  const manager = new Manager({
    cluster: env.cluster,
    clock: env.clock,
    timers: env.timers,
    registry,
    logger,
    settleCluster: () => env.settle(),
  });
  const lMetrics = lifecycleMetrics(registry);
  const base = { cluster: env.cluster, cloudProvider: env.provider, clock: env.clock, events };
  const disruption = new DisruptionController(
    { ...base, state, metrics: disruptionMetrics(registry), lifecycleMetrics: lMetrics },
    options.controller,
  );
  manager.register(
    ...provisioningControllers({ ...base, registry, lifecycleMetrics: lMetrics, state }),
    ...lifecycleControllers({ ...base, metrics: lMetrics }),
    disruption,
  );
  await env.cluster.create(NodePools, {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default' },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'sim.nodewright.dev', kind: 'SimulatedNodeClass', name: 'default' },
          requirements: options.requirements ?? [OnDemandOnly],
        },
      },
      disruption: {
        consolidationPolicy: 'WhenEmptyOrUnderutilized',
        consolidateAfter: '0s',
        ...options.disruption,
      },
    },
  } as never);
  manager.start();
  await manager.synced();
  const advance = (ms: number) => env.timers.advance(ms, () => manager.settled());
  const metric = async (name: string, labels: Record<string, string>) => {
    const values = (await registry.getSingleMetric(name)?.get())?.values ?? [];
    return values
      .filter((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want))
      .reduce((s, v) => s + v.value, 0);
  };
  const scale = (name: string, replicas: number) =>
    env.cluster.patch(Deployments, { name, namespace: 'default' }, { spec: { replicas } });
  const deploy = async (d: HarnessDeployment) => {
    const pod = {
      requests: d.requests ?? { cpu: '1', memory: '1Gi' },
      ...(d.antiAffinity === undefined ? {} : { antiAffinity: d.antiAffinity }),
    };
    await env.cluster.create(
      Deployments,
      deploymentObject({ name: d.name, namespace: 'default', replicas: 0, pod }, d.replicas) as UntypedObject,
    );
  };
  for (const d of options.deployments ?? [{ name: 'web', replicas: 3 }]) await deploy(d);
  await advance(120_000);
  /** The hourly price of the instances running now. */
  const hourlyCost = () =>
    env.provider
      .instances()
      .filter((i) => i.state === 'pending' || i.state === 'running')
      .reduce((sum, i) => sum + i.offering.price, 0);
  const nodes = async () => (await env.cluster.list(Nodes)).items;
  const claims = async () => (await env.cluster.list(NodeClaims)).items;
  return {
    env,
    events,
    logs,
    registry,
    manager,
    state,
    disruption,
    advance,
    metric,
    scale,
    deploy,
    hourlyCost,
    nodes,
    claims,
  };
}

/** What `startControllerHarness` gives a test. */
export type ControllerHarness = Awaited<ReturnType<typeof startControllerHarness>>;
