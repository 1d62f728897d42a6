import { type Logger, pino } from 'pino';
import { Registry } from 'prom-client';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import { DisruptionController } from '../../disruption/controller/disruption-controller.js';
import { disruptionMetrics } from '../../disruption/controller/metrics.js';
import { Deployments, Jobs, PodDisruptionBudgets } from '../../kube/builtin-types.js';
import type { MergePatch } from '../../kube/merge-patch.js';
import type { UntypedObject } from '../../kube/object.js';
import { lifecycleControllers } from '../../lifecycle/controllers.js';
import { lifecycleMetrics } from '../../lifecycle/metrics.js';
import { NodeClaims, NodePools, Pods } from '../../lifecycle/resource-types.js';
import type { EventRecorder, PublishedEvent } from '../../operator/runtime/event-recorder.js';
import { Manager } from '../../operator/runtime/manager.js';
import { provisioningControllers } from '../../provisioning/controllers.js';
import { ClusterState } from '../../state/cluster-state.js';
import { SimulationEnvironment } from '../environment/simulation-environment.js';
import { replicaChanges } from '../scenario/replica-schedule.js';
import { deploymentObject, jobObject, pdbObject } from '../scenario/scenario-objects.js';
import type { Scenario } from '../scenario/scenario-schema.js';
import { type FleetSample, sampleFleet } from './fleet-sample.js';
import { quantile } from './percentiles.js';
import { bootDelay, insufficientCapacityRates, interruptionStorms, launchLatency } from './scenario-cloud.js';

const HOUR = 3_600_000;

/** What a simulation run needs besides the scenario. */
export interface RunSimulationOptions {
  readonly scenario: Scenario;
  /** The scenario's catalog, resolved by the caller (a built-in name or the inline catalog). */
  readonly instanceTypes: readonly InstanceType[];
  /** Between fleet samples, simulated. Default 60 s. */
  readonly sampleEveryMs?: number;
  /** Called with the simulated time reached, at most every `progressEveryMs` of `wallClock`. */
  readonly onProgress?: (progress: SimulationProgress) => void;
  readonly wallClock?: () => number;
  /** Default 2000 ms. */
  readonly progressEveryMs?: number;
  /** Controller logs; default silent. */
  readonly logger?: Logger;
}

export interface SimulationProgress {
  readonly simulatedMs: number;
  readonly durationMs: number;
  readonly nodes: number;
  readonly podsPending: number;
}

/** The contract's summary of one run. */
export interface SimulationSummary {
  readonly scenario: string;
  readonly seed: number | string;
  readonly durationHours: number;
  readonly nodes: {
    readonly launched: number;
    readonly terminated: number;
    readonly peak: number;
    readonly atEnd: number;
  };
  readonly cost: { readonly total: number; readonly averagePerHour: number };
  /** Time-weighted requests / allocatable over the run, 0..1. */
  readonly utilisation: { readonly cpu: number; readonly memory: number };
  readonly pods: {
    readonly created: number;
    readonly scheduled: number;
    readonly pendingAtEnd: number;
    /** From creation to binding, seconds; pods still pending at the end count until the end. */
    readonly pendingSeconds: {
      readonly p50: number;
      readonly p90: number;
      readonly p99: number;
      readonly max: number;
    };
  };
  /** NodeClaims disrupted, by reason (karpenter_nodeclaims_disrupted_total). */
  readonly disruptions: Readonly<Record<string, number>>;
  /** Voluntary disruption decisions, by `decision/reason` (karpenter_voluntary_disruption_decisions_total). */
  readonly decisions: Readonly<Record<string, number>>;
  /** Events published by the controllers, by reason. */
  readonly events: Readonly<Record<string, number>>;
}

export interface SimulationResult {
  readonly summary: SimulationSummary;
  readonly series: readonly FleetSample[];
}

/** An EventRecorder that only counts reasons: a long run would otherwise hold every event. */
class CountingEventRecorder implements EventRecorder {
  readonly counts = new Map<string, number>();
  async publish(event: PublishedEvent): Promise<void> {
    this.counts.set(event.reason, (this.counts.get(event.reason) ?? 0) + 1);
  }
}

type Action = { readonly at: number; readonly order: number; readonly run: () => Promise<unknown> };

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const sortedRecord = (m: ReadonlyMap<string, number>) =>
  Object.fromEntries(
    [...m.entries()].filter(([, v]) => v > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );

/**
 * Runs a scenario: a MemoryCluster with the simulated kube-scheduler, workload controllers and
 * kubelet, a SimulatedCloudProvider, and every nodewright controller (provisioning, lifecycle,
 * termination, expiration, garbage collection, disruption) on a Manager, all on one fake clock.
 * Time moves timer by timer (ManualTimers), settling the cluster and the controllers after each,
 * so a day runs in seconds and the same scenario and seed give the same result.
 */
export async function runSimulation(options: RunSimulationOptions): Promise<SimulationResult> {
  const { scenario } = options;
  const start = Date.parse(scenario.start ?? '2026-03-02T00:00:00Z');
  const end = start + scenario.duration;
  const cloud = scenario.cloud;
  const env = new SimulationEnvironment({
    start,
    seed: scenario.seed,
    catalog: options.instanceTypes,
    cluster: { kinds: [NodePools, NodeClaims] },
    cloud: {
      launchLatency: launchLatency(cloud),
      insufficientCapacityRate: insufficientCapacityRates(cloud.iceRate),
      spotInterruptionRatePerHour: cloud.spotInterruptionsPerHour ?? 0,
      interruptionStorms: interruptionStorms(scenario, start),
    },
    registration: { bootDelay: bootDelay(cloud) },
  });
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
  const base = { cluster: env.cluster, cloudProvider: env.provider, clock: env.clock, events };
  manager.register(
    ...provisioningControllers({ ...base, registry, lifecycleMetrics: lMetrics, state }),
    ...lifecycleControllers({ ...base, metrics: lMetrics }),
    new DisruptionController({ ...base, state, metrics: dMetrics, lifecycleMetrics: lMetrics }),
  );

  const created = new Map<string, number>();
  const bound = new Map<string, number>();
  const podWatch = env.cluster.watch(Pods, (event) => {
    if (event.type === 'ERROR') return;
    const pod = event.object as Pod;
    const uid = pod.metadata.uid ?? `${pod.metadata.namespace}/${pod.metadata.name}`;
    if (!created.has(uid)) created.set(uid, env.clock.now());
    if (event.type === 'DELETED') {
      if (!bound.has(uid)) created.delete(uid);
      return;
    }
    if (pod.spec.nodeName && !bound.has(uid)) bound.set(uid, env.clock.now());
  });

  for (const pool of scenario.nodePools) await env.cluster.create(NodePools, pool);
  manager.start();
  await manager.synced();
  await manager.settled();

  const actions: Action[] = [];
  let order = 0;
  for (const d of scenario.workloads.deployments) {
    const pdb = pdbObject(d);
    if (pdb !== undefined)
      actions.push({
        at: start,
        order: order++,
        run: () => env.cluster.create(PodDisruptionBudgets, pdb as UntypedObject),
      });
    const changes = replicaChanges(d.replicas, scenario.duration);
    const [first, ...rest] = changes;
    actions.push({
      at: start,
      order: order++,
      run: () => env.cluster.create(Deployments, deploymentObject(d, first?.replicas ?? 0) as UntypedObject),
    });
    for (const c of rest) {
      actions.push({
        at: start + c.at,
        order: order++,
        run: () =>
          env.cluster.patch(
            Deployments,
            { name: d.name, namespace: d.namespace },
            { spec: { replicas: c.replicas } },
          ),
      });
    }
  }
  for (const j of scenario.workloads.jobs) {
    actions.push({
      at: start + j.arriveAt,
      order: order++,
      run: () => env.cluster.create(Jobs, jobObject(j) as UntypedObject),
    });
  }
  for (const e of scenario.events) {
    actions.push({
      at: start + e.at,
      order: order++,
      run: () =>
        env.cluster.patch(NodePools, { name: e.nodePoolPatch.name }, e.nodePoolPatch.patch as MergePatch),
    });
  }
  actions.sort((a, b) => a.at - b.at || a.order - b.order);

  const sampleEvery = options.sampleEveryMs ?? 60_000;
  const series: FleetSample[] = [];
  const wall = options.wallClock;
  const progressEvery = options.progressEveryMs ?? 2_000;
  let lastProgress = wall?.() ?? 0;
  let nextSample = start;
  let next = 0;
  const settle = () => manager.settled();
  for (;;) {
    const now = env.clock.now();
    while (next < actions.length && actions[next]!.at <= now) {
      await actions[next]!.run();
      next++;
    }
    await settle();
    if (now >= nextSample) {
      const sample = sampleFleet(
        (now - start) / HOUR,
        state.nodes(),
        state.pods(),
        env.provider.ledger.hourlyRateAt(now),
      );
      series.push(sample);
      nextSample += sampleEvery;
      if (wall !== undefined && options.onProgress !== undefined && wall() - lastProgress >= progressEvery) {
        lastProgress = wall();
        options.onProgress({
          simulatedMs: now - start,
          durationMs: scenario.duration,
          nodes: sample.nodes,
          podsPending: sample.podsPending,
        });
      }
    }
    if (now >= end) break;
    const target = Math.min(end, nextSample, actions[next]?.at ?? end);
    await env.timers.runUntil(target, settle);
  }

  podWatch.stop();
  await manager.stop();
  env.stop();
  return {
    summary: await summarise(scenario, start, end, env, registry, events, series, created, bound),
    series,
  };
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

async function summarise(
  scenario: Scenario,
  start: number,
  end: number,
  env: SimulationEnvironment,
  registry: Registry,
  events: CountingEventRecorder,
  series: readonly FleetSample[],
  created: ReadonlyMap<string, number>,
  bound: ReadonlyMap<string, number>,
): Promise<SimulationSummary> {
  const records = env.provider.ledger.records();
  const changes: Array<[number, number]> = [];
  for (const r of records) {
    changes.push([r.startedAt, 1]);
    if (r.stoppedAt !== undefined) changes.push([r.stoppedAt, -1]);
  }
  changes.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let running = 0;
  let peak = 0;
  for (const [, d] of changes) {
    running += d;
    peak = Math.max(peak, running);
  }
  let cpuReq = 0;
  let cpuAlloc = 0;
  let memReq = 0;
  let memAlloc = 0;
  for (const s of series) {
    cpuReq += s.cpuRequested;
    cpuAlloc += s.cpuAllocatable;
    memReq += s.memoryRequested;
    memAlloc += s.memoryAllocatable;
  }
  const waits: number[] = [];
  for (const [uid, at] of created) waits.push(((bound.get(uid) ?? end) - at) / 1000);
  waits.sort((a, b) => a - b);
  const total = env.provider.ledger.costBetween(start, end);
  const hours = (end - start) / HOUR;
  const disruptions = await counterBy(registry, 'karpenter_nodeclaims_disrupted_total', (l) =>
    String(l.reason),
  );
  const decisions = await counterBy(
    registry,
    'karpenter_voluntary_disruption_decisions_total',
    (l) => `${l.decision}/${l.reason}${l.consolidation_type ? `/${l.consolidation_type}` : ''}`,
  );
  return {
    scenario: scenario.name,
    seed: scenario.seed,
    durationHours: round(hours, 3),
    nodes: {
      launched: records.length,
      terminated: records.filter((r) => r.stoppedAt !== undefined).length,
      peak,
      atEnd: series.at(-1)?.nodes ?? 0,
    },
    cost: { total: round(total, 4), averagePerHour: round(total / hours, 4) },
    utilisation: {
      cpu: cpuAlloc === 0 ? 0 : round(cpuReq / cpuAlloc, 4),
      memory: memAlloc === 0 ? 0 : round(memReq / memAlloc, 4),
    },
    pods: {
      created: created.size,
      scheduled: [...created.keys()].filter((uid) => bound.has(uid)).length,
      pendingAtEnd: series.at(-1)?.podsPending ?? 0,
      pendingSeconds: {
        p50: round(quantile(waits, 0.5), 1),
        p90: round(quantile(waits, 0.9), 1),
        p99: round(quantile(waits, 0.99), 1),
        max: round(waits.at(-1) ?? 0, 1),
      },
    },
    disruptions: sortedRecord(disruptions),
    decisions: sortedRecord(decisions),
    events: sortedRecord(events.counts),
  };
}
