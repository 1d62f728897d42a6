import type { Node } from '../../apis/kubernetes/node.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { Nodes, Pods } from '../../kube/resource-types.js';
import { LowerBoundCache } from '../../scheduling/lower-bound/lower-bound-cache.js';
import { nodePoolOfferings } from '../../scheduling/lower-bound/node-pool-offerings.js';
import { PodRequestsMemo } from '../../scheduling/pod/requests-memo.js';
import type { SimulatedInstance } from '../cloud/instance.js';
import type { SimulationEnvironment } from '../environment/simulation-environment.js';
import { countDeltas } from '../runner/counts.js';
import { AllocatableMemo, PodFiguresMemo, sampleFleet } from '../runner/fleet-sample.js';
import {
  type RunResult,
  type RunSimulationOptions,
  type SimulationComparison,
  scenarioEnvironment,
  scenarioStart,
} from '../runner/run-simulation.js';
import {
  driveScenario,
  type SimulationSummary,
  summariseRun,
  watchPodTimes,
} from '../runner/scenario-driver.js';
import {
  type ClusterAutoscalerOptions,
  ClusterAutoscalerSimulator,
  EvictedCount,
} from './cluster-autoscaler.js';
import { chooseNodeGroups, type NodeGroup } from './node-groups.js';

/** The baseline autoscalers `nodewright simulate --baseline` knows. */
export const BaselineAutoscalers = ['cluster-autoscaler'] as const;
export type BaselineAutoscaler = (typeof BaselineAutoscalers)[number];

export interface BaselineResult extends RunResult {
  readonly autoscaler: BaselineAutoscaler;
  /** `<group>: <instance type>` per node group. */
  readonly nodeGroups: readonly string[];
}

/** Nodes and pods as their watches last delivered them (a cheap informer for sampling). */
function watchFleet(env: SimulationEnvironment) {
  const nodes = new Map<string, Node>();
  const pods = new Map<string, Pod>();
  const nodeWatch = env.cluster.watch(Nodes, (e) => {
    if (e.type === 'ERROR') return;
    const n = e.object as unknown as Node;
    if (e.type === 'DELETED') nodes.delete(n.metadata.name);
    else nodes.set(n.metadata.name, n);
  });
  const podWatch = env.cluster.watch(Pods, (e) => {
    if (e.type === 'ERROR') return;
    const p = e.object as unknown as Pod;
    const key = `${p.metadata.namespace}/${p.metadata.name}`;
    if (e.type === 'DELETED') pods.delete(key);
    else pods.set(key, p);
  });
  return {
    nodes: () => [...nodes.values()],
    pods: () => [...pods.values()],
    stop: () => {
      nodeWatch.stop();
      podWatch.stop();
    },
  };
}

/**
 * Runs the scenario's workloads, seed, simulated cloud, kube-scheduler and kubelet under Cluster
 * Autoscaler instead of nodewright: node groups from `chooseNodeGroups` (or `groups`), the
 * ClusterAutoscalerSimulator with CA's defaults. Nodes register without Karpenter's unregistered
 * taint. NodePool events (template patches) have nothing to act on and are not played.
 * `disruptions` and `decisions` count CA's scale-downs (see baselineDisruptions), so they sit
 * beside nodewright's.
 */
export async function runClusterAutoscalerBaseline(
  options: RunSimulationOptions & {
    readonly groups?: readonly NodeGroup[];
    readonly autoscaler?: ClusterAutoscalerOptions;
  },
): Promise<BaselineResult> {
  const { scenario } = options;
  const start = scenarioStart(scenario);
  const env = scenarioEnvironment(scenario, options.instanceTypes, { unregisteredTaint: false });
  const groups = options.groups ?? chooseNodeGroups(scenario, options.instanceTypes);
  const ca = new ClusterAutoscalerSimulator(
    {
      cluster: env.cluster,
      provider: env.provider,
      clock: env.clock,
      timers: env.timers,
      groups,
      onError: env.errors.report,
    },
    options.autoscaler,
  );
  const fleet = watchFleet(env);
  const pods = watchPodTimes(env);
  const boundTypes = nodePoolOfferings(options.instanceTypes, scenario.nodePools);
  const disrupted = () => baselineDisruptions(ca.disruptions, env.provider.instances(), env.clock.now());
  const disruptedSince = countDeltas(disrupted);
  const bounds = new LowerBoundCache();
  const allocatable = new AllocatableMemo();
  const requests = new PodRequestsMemo();
  const figures = new PodFiguresMemo(requests);
  ca.start();
  const settle = async () => {
    await env.settle();
    await ca.settled();
    await env.settle();
  };
  await settle();
  const series = await driveScenario({
    scenario,
    env,
    start,
    settle,
    nodePools: false,
    sample: async (hour) =>
      sampleFleet(
        hour,
        fleet.nodes(),
        fleet.pods(),
        env.provider.ledger.hourlyRateAt(env.clock.now()),
        await disruptedSince(),
        boundTypes,
        bounds,
        requests,
        allocatable,
        figures,
      ),
    sampleEveryMs: options.sampleEveryMs ?? 60_000,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    ...(options.wallClock === undefined ? {} : { wallClock: options.wallClock }),
    progressEveryMs: options.progressEveryMs ?? 2_000,
  });
  ca.stop();
  pods.stop();
  fleet.stop();
  env.stop();
  options.onWork?.({
    reconciles: ca.scans,
    clusterRequests: env.cluster.requestCount,
    timersFired: env.timers.fired,
  });
  return {
    autoscaler: 'cluster-autoscaler',
    nodeGroups: groups.map((g) => `${g.name}: ${g.instanceType.name}`),
    summary: summariseRun({
      scenario,
      start,
      env,
      series,
      pods,
      disruptions: disrupted(),
      decisions: ca.decisions,
      events: ca.counts,
      evicted: ca.counts.get(EvictedCount) ?? 0,
    }),
    series,
  };
}

/**
 * What the baseline's `disruptions` count (pure): CA's scale-downs by reason, and as
 * `interruption` the instances the cloud had sent a notice by `now` — the reason nodewright
 * counts for the same notices, so the side-by-side view compares like with like (CA has no
 * termination handler: the node simply goes at the deadline).
 */
export function baselineDisruptions(
  scaleDowns: ReadonlyMap<string, number>,
  instances: readonly SimulatedInstance[],
  now: number,
): Map<string, number> {
  const out = new Map(scaleDowns);
  const interrupted = instances.filter((i) => i.interruption !== undefined && i.interruption.noticeAt <= now);
  if (interrupted.length > 0) out.set('interruption', interrupted.length);
  return out;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** nodewright's summary against the baseline's (pure): see SimulationComparison. */
export function compareSummaries(
  nodewright: SimulationSummary,
  baseline: SimulationSummary,
): SimulationComparison {
  const base = baseline.cost.total;
  return {
    costDeltaPercent: base === 0 ? 0 : round(((nodewright.cost.total - base) / base) * 100, 2),
    utilisationDelta: {
      cpu: round(nodewright.utilisation.cpu - baseline.utilisation.cpu, 4),
      memory: round(nodewright.utilisation.memory - baseline.utilisation.memory, 4),
    },
    pendingSecondsDelta: {
      p50: round(nodewright.pods.pendingSeconds.p50 - baseline.pods.pendingSeconds.p50, 1),
      p90: round(nodewright.pods.pendingSeconds.p90 - baseline.pods.pendingSeconds.p90, 1),
    },
  };
}
