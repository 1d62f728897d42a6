import { type Logger, pino } from 'pino';
import { Registry } from 'prom-client';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import { DisruptionController } from '../../disruption/controller/disruption-controller.js';
import { disruptionMetrics } from '../../disruption/controller/metrics.js';
import { NodeClaims, NodePools } from '../../kube/resource-types.js';
import { EventReasons } from '../../lifecycle/events.js';
import { lifecycleMetrics } from '../../lifecycle/metrics.js';
import { lifecycleControllers, provisioningControllers } from '../../operator/controllers.js';
import { DedupingEventRecorder } from '../../operator/runtime/event-dedupe.js';
import type { EventRecorder, PublishedEvent } from '../../operator/runtime/event-recorder.js';
import { Manager } from '../../operator/runtime/manager.js';
import { RuntimeMetricNames } from '../../operator/runtime/metrics.js';
import { LowerBoundCache } from '../../scheduling/lower-bound/lower-bound-cache.js';
import { nodePoolOfferings } from '../../scheduling/lower-bound/node-pool-offerings.js';
import { PodRequestsMemo } from '../../scheduling/pod/requests-memo.js';
import { ClusterState } from '../../state/cluster-state.js';
import { SimulationEnvironment } from '../environment/simulation-environment.js';
import type { Scenario } from '../scenario/scenario-schema.js';
import { countDeltas } from './counts.js';
import { AllocatableMemo, type FleetSample, PodFiguresMemo, sampleFleet } from './fleet-sample.js';
import { bootDelay, insufficientCapacityRates, interruptionStorms, launchLatency } from './scenario-cloud.js';
import {
  driveScenario,
  type SimulationProgress,
  type SimulationSummary,
  summariseRun,
  watchPodTimes,
} from './scenario-driver.js';

/** What a simulation run needs besides the scenario. */
export interface RunSimulationOptions {
  readonly scenario: Scenario;
  /** The scenario's catalog, resolved by the caller (a built-in name or the inline catalog). */
  readonly instanceTypes: readonly InstanceType[];
  /**
   * The catalog's well-known labels (see catalogWellKnownLabels), reported by the simulated
   * cloud's `wellKnownLabels()`; none beyond core's when absent.
   */
  readonly wellKnownLabels?: ReadonlySet<string>;
  /** Between fleet samples, simulated. Default 60 s. */
  readonly sampleEveryMs?: number;
  /** Called with the simulated time reached, at most every `progressEveryMs` of `wallClock`. */
  readonly onProgress?: (progress: SimulationProgress) => void;
  readonly wallClock?: () => number;
  /** Default 2000 ms. */
  readonly progressEveryMs?: number;
  /** Controller logs; default silent. */
  readonly logger?: Logger;
  /** Called once at the end with what the run cost the simulator itself (for benchmarks). */
  readonly onWork?: (work: SimulationWork) => void;
}

/** What one run cost the simulator, beyond its result: where wall time goes (`bench:simulate`). */
export interface SimulationWork {
  /** nodewright's controller reconciles; for the Cluster Autoscaler baseline, its scans. */
  readonly reconciles: number;
  /** Requests the in-memory API server served (reads, writes, watches, evictions, events). */
  readonly clusterRequests: number;
  /** Timer callbacks the fake clock fired. */
  readonly timersFired: number;
}

/** One run: its summary and its fleet series (one sample per `sampleEveryMs`). */
export interface RunResult {
  readonly summary: SimulationSummary;
  readonly series: readonly FleetSample[];
}

/**
 * Differences of nodewright's run from the baseline's: positive `costDeltaPercent` means
 * nodewright cost more; utilisation deltas are in points of 0..1; pending deltas in seconds.
 */
export interface SimulationComparison {
  readonly costDeltaPercent: number;
  readonly utilisationDelta: { readonly cpu: number; readonly memory: number };
  readonly pendingSecondsDelta: { readonly p50: number; readonly p90: number };
}

export interface SimulationResult extends RunResult {
  /** The same scenario under the baseline autoscaler, when one was asked for. */
  readonly baseline?: RunResult & { readonly autoscaler: string; readonly nodeGroups: readonly string[] };
  readonly comparison?: SimulationComparison;
}

/** An EventRecorder that only counts reasons: a long run would otherwise hold every event. */
class CountingEventRecorder implements EventRecorder {
  readonly counts = new Map<string, number>();
  async publish(event: PublishedEvent): Promise<void> {
    this.counts.set(event.reason, (this.counts.get(event.reason) ?? 0) + 1);
  }
}

/** The simulated time a scenario starts at. */
export function scenarioStart(scenario: Scenario): number {
  return Date.parse(scenario.start ?? '2026-03-02T00:00:00Z');
}

/** The simulated cloud and kubelet a scenario describes, on a fresh environment. */
export function scenarioEnvironment(
  scenario: Scenario,
  instanceTypes: readonly InstanceType[],
  options: { readonly unregisteredTaint?: boolean; readonly wellKnownLabels?: ReadonlySet<string> } = {},
): SimulationEnvironment {
  const cloud = scenario.cloud;
  const start = scenarioStart(scenario);
  return new SimulationEnvironment({
    start,
    seed: scenario.seed,
    catalog: instanceTypes,
    cluster: { kinds: [NodePools, NodeClaims] },
    // Nothing in a run reads the simulated kube-scheduler's Scheduled / FailedScheduling
    // Events, and writing them was 9 % of a 500-node run: one per failed attempt of every
    // pending pod, and without backoff an attempt follows every Node change.
    binder: {
      events: false,
      ...(scenario.scheduler.backoff === undefined
        ? {}
        : {
            backoff: { initialMs: scenario.scheduler.backoff.initial, maxMs: scenario.scheduler.backoff.max },
          }),
    },
    cloud: {
      launchLatency: launchLatency(cloud),
      insufficientCapacityRate: insufficientCapacityRates(cloud.iceRate),
      spotInterruptionRatePerHour: cloud.spotInterruptionsPerHour ?? 0,
      interruptionStorms: interruptionStorms(scenario, start),
      ...(options.wellKnownLabels === undefined ? {} : { wellKnownLabels: options.wellKnownLabels }),
    },
    registration: {
      bootDelay: bootDelay(cloud),
      ...(options.unregisteredTaint === undefined ? {} : { unregisteredTaint: options.unregisteredTaint }),
    },
  });
}

async function counterBy(
  registry: Registry,
  name: string,
  key: (labels: Record<string, string | number>) => string,
) {
  const out = new Map<string, number>();
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) return out;
  for (const v of (await metric.get()).values) {
    const k = key(v.labels as Record<string, string | number>);
    out.set(k, (out.get(k) ?? 0) + v.value);
  }
  return out;
}

const disruptedByReason = (registry: Registry) =>
  counterBy(registry, 'karpenter_nodeclaims_disrupted_total', (l) => String(l.reason));

/**
 * Runs a scenario: a MemoryCluster with the simulated kube-scheduler, workload controllers and
 * kubelet, a SimulatedCloudProvider, and every nodewright controller (provisioning, lifecycle,
 * termination, expiration, garbage collection, disruption) on a Manager, all on one fake clock.
 * Time moves timer by timer (ManualTimers), settling the cluster and the controllers after each,
 * so a day runs in seconds and the same scenario and seed give the same result.
 */
export async function runSimulation(options: RunSimulationOptions): Promise<SimulationResult> {
  const { scenario } = options;
  const start = scenarioStart(scenario);
  const env = scenarioEnvironment(
    scenario,
    options.instanceTypes,
    options.wellKnownLabels === undefined ? {} : { wellKnownLabels: options.wellKnownLabels },
  );
  const registry = new Registry();
  const events = new CountingEventRecorder();
  const logger = options.logger ?? pino({ level: 'silent' });
  const state = new ClusterState({ clock: env.clock, registry });
  const manager = new Manager({
    cluster: env.cluster,
    clock: env.clock,
    timers: env.timers,
    registry,
    logger,
    settleCluster: () => env.settle(),
    elapsed: () => env.clock.now() / 1000,
  });
  const lMetrics = lifecycleMetrics(registry);
  const dMetrics = disruptionMetrics(registry);
  // Deduped as the operator's are, so the counts are the events a cluster would see.
  const published = new DedupingEventRecorder(events, env.clock);
  const base = { cluster: env.cluster, cloudProvider: env.provider, clock: env.clock, events: published };
  manager.register(
    // A pass must not yield mid-solve (nor the disruption pass below mid-search): other
    // controllers' work would interleave at machine-speed-dependent points and the run would
    // stop being reproducible.
    ...provisioningControllers(
      { ...base, registry, lifecycleMetrics: lMetrics, state },
      { provisioner: { sliceMs: Number.POSITIVE_INFINITY } },
    ),
    ...lifecycleControllers({ ...base, metrics: lMetrics }),
    new DisruptionController(
      { ...base, state, metrics: dMetrics, lifecycleMetrics: lMetrics },
      { sliceMs: Number.POSITIVE_INFINITY },
    ),
  );

  const pods = watchPodTimes(env);
  const boundTypes = nodePoolOfferings(options.instanceTypes, scenario.nodePools);
  const bounds = new LowerBoundCache();
  const allocatable = new AllocatableMemo();
  const requests = new PodRequestsMemo();
  const figures = new PodFiguresMemo(requests);
  const disruptedSince = countDeltas(() => disruptedByReason(registry));
  for (const pool of scenario.nodePools) await env.cluster.create(NodePools, pool);
  manager.start();
  await manager.synced();
  await manager.settled();

  const series = await driveScenario({
    scenario,
    env,
    start,
    settle: () => manager.settled(),
    sample: async (hour) =>
      sampleFleet(
        hour,
        state.nodes(),
        state.pods(),
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

  pods.stop();
  await manager.stop();
  env.stop();
  options.onWork?.({
    reconciles: [...(await counterBy(registry, RuntimeMetricNames.ReconcileTotal, () => '')).values()].reduce(
      (a, n) => a + n,
      0,
    ),
    clusterRequests: env.cluster.requestCount,
    timersFired: env.timers.fired,
  });
  const disruptions = await disruptedByReason(registry);
  const decisions = await counterBy(
    registry,
    'karpenter_voluntary_disruption_decisions_total',
    (l) => `${l.decision}/${l.reason}${l.consolidation_type ? `/${l.consolidation_type}` : ''}`,
  );
  return {
    summary: summariseRun({
      scenario,
      start,
      env,
      series,
      pods,
      disruptions,
      decisions,
      events: events.counts,
      // The termination controller publishes Evicted for every eviction the API server accepts.
      evicted: events.counts.get(EventReasons.Evicted) ?? 0,
    }),
    series,
  };
}
