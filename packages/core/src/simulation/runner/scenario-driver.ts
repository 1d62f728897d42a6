import type { Pod } from '../../apis/kubernetes/pod.js';
import type { MergePatch } from '../../kube/merge-patch.js';
import type { UntypedObject } from '../../kube/object.js';
import { Deployments, Jobs, NodePools, PodDisruptionBudgets, Pods } from '../../kube/resource-types.js';
import type { SimulationEnvironment } from '../environment/simulation-environment.js';
import { replicaChanges } from '../scenario/replica-schedule.js';
import { deploymentObject, jobObject, pdbObject } from '../scenario/scenario-objects.js';
import type { Scenario } from '../scenario/scenario-schema.js';
import { sortedRecord } from './counts.js';
import type { FleetSample } from './fleet-sample.js';
import { quantile } from './percentiles.js';

const HOUR = 3_600_000;

/** Progress of one run, reported while it goes. */
export interface SimulationProgress {
  readonly simulatedMs: number;
  readonly durationMs: number;
  readonly nodes: number;
  readonly podsPending: number;
  /** Wall-clock milliseconds since the run started (by the `wallClock` given). */
  readonly wallMs: number;
  /**
   * Wall-clock milliseconds still to go, estimated from the pace so far (simulated time per wall
   * time); undefined before any simulated time has passed.
   */
  readonly etaMs: number | undefined;
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
  readonly cost: {
    readonly total: number;
    readonly averagePerHour: number;
    /**
     * The time-integrated lower bound: each sample's `lowerBoundPerHour` (the cheapest capacity
     * the NodePools could buy to hold the pods requested at that instant) held until the next
     * sample. No autoscaler could have paid less for the same requests, sampled so.
     */
    readonly lowerBound: number;
    /** `total / lowerBound`: 1 would be the bound itself; 0 when the bound is 0. */
    readonly lowerBoundRatio: number;
  };
  /** Time-weighted requests / allocatable over the run, 0..1. */
  readonly utilisation: { readonly cpu: number; readonly memory: number };
  readonly pods: {
    readonly created: number;
    readonly scheduled: number;
    readonly pendingAtEnd: number;
    /**
     * Pods evicted through the Eviction API (node drains: disruption, interruption, CA's
     * scale-down); their Deployments recreate them, so each is also one of `created`.
     */
    readonly evicted: number;
    /** From creation to binding, seconds; pods still pending at the end count until the end. */
    readonly pendingSeconds: {
      readonly p50: number;
      readonly p90: number;
      readonly p99: number;
      readonly max: number;
    };
  };
  /**
   * NodeClaims disrupted, by reason (karpenter_nodeclaims_disrupted_total): `empty`,
   * `underutilized`, `drifted`, `expired`, `interruption`, ... — lowercase, as the metric's
   * label, not the `Empty`/`Underutilized`/`Drifted` reasons `disrupt` prints. Under the
   * Cluster Autoscaler baseline: its scale-downs (`empty`, `underutilized`, as CA's
   * scaled_down_nodes_total) and the cloud's interruption notices (`interruption`).
   */
  readonly disruptions: Readonly<Record<string, number>>;
  /**
   * Voluntary disruption decisions, by `decision/reason[/consolidation type]`
   * (karpenter_voluntary_disruption_decisions_total); under the baseline, CA's scale-downs
   * begun, `delete/empty` or `delete/underutilized` (a drain a PDB then refuses still counts).
   */
  readonly decisions: Readonly<Record<string, number>>;
  /** Events published by the controllers, by reason. */
  readonly events: Readonly<Record<string, number>>;
}

type Action = { readonly at: number; readonly order: number; readonly run: () => Promise<unknown> };

/**
 * The scenario's workloads and events as timed writes to the cluster, in order. Without
 * `nodePools` (a run whose autoscaler has no NodePools, such as the Cluster Autoscaler baseline)
 * the scenario's NodePool edits are left out: there is nothing for them to patch.
 */
export function scenarioActions(
  scenario: Scenario,
  env: SimulationEnvironment,
  start: number,
  options: { readonly nodePools: boolean } = { nodePools: true },
): Action[] {
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
    const [first, ...rest] = replicaChanges(d.replicas, scenario.duration);
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
  for (const e of options.nodePools ? scenario.events : []) {
    actions.push({
      at: start + e.at,
      order: order++,
      run: () =>
        env.cluster.patch(NodePools, { name: e.nodePoolPatch.name }, e.nodePoolPatch.patch as MergePatch),
    });
  }
  return actions.sort((a, b) => a.at - b.at || a.order - b.order);
}

/** When each pod was first seen and first bound, by uid. */
export interface PodTimes {
  readonly created: ReadonlyMap<string, number>;
  readonly bound: ReadonlyMap<string, number>;
  stop(): void;
}

/** Watches pods from now on, recording creation and binding times on the simulated clock. */
export function watchPodTimes(env: SimulationEnvironment): PodTimes {
  const created = new Map<string, number>();
  const bound = new Map<string, number>();
  const watch = env.cluster.watch(Pods, (event) => {
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
  return { created, bound, stop: () => watch.stop() };
}

/** How `driveScenario` moves one run along. */
export interface DriveOptions {
  readonly scenario: Scenario;
  readonly env: SimulationEnvironment;
  readonly start: number;
  /** Waits until every consequence of the last change has played out (cluster and controllers). */
  readonly settle: () => Promise<void>;
  /** The fleet now, for the series. */
  readonly sample: (hour: number) => FleetSample | Promise<FleetSample>;
  readonly sampleEveryMs: number;
  readonly onProgress?: (progress: SimulationProgress) => void;
  readonly wallClock?: () => number;
  readonly progressEveryMs: number;
  /** Whether the run has NodePools for the scenario's NodePool edits. Default true. */
  readonly nodePools?: boolean;
}

/**
 * Plays the scenario's actions at their times and samples the fleet every `sampleEveryMs`,
 * moving time timer by timer and settling after each, until the scenario's end. Returns the series.
 */
export async function driveScenario(o: DriveOptions): Promise<FleetSample[]> {
  const { env, start, scenario } = o;
  const end = start + scenario.duration;
  const actions = scenarioActions(scenario, env, start, { nodePools: o.nodePools ?? true });
  const series: FleetSample[] = [];
  const wallStart = o.wallClock?.() ?? 0;
  let lastProgress = wallStart;
  let nextSample = start;
  let next = 0;
  for (;;) {
    const now = env.clock.now();
    while (next < actions.length && actions[next]!.at <= now) {
      await actions[next]!.run();
      next++;
    }
    await o.settle();
    if (now >= nextSample) {
      const sample = await o.sample((now - start) / HOUR);
      series.push(sample);
      nextSample += o.sampleEveryMs;
      const wall = o.wallClock;
      if (wall !== undefined && o.onProgress !== undefined && wall() - lastProgress >= o.progressEveryMs) {
        lastProgress = wall();
        const simulatedMs = now - start;
        const wallMs = lastProgress - wallStart;
        o.onProgress({
          simulatedMs,
          durationMs: scenario.duration,
          nodes: sample.nodes,
          podsPending: sample.podsPending,
          wallMs,
          etaMs: simulatedMs > 0 ? ((scenario.duration - simulatedMs) * wallMs) / simulatedMs : undefined,
        });
      }
    }
    if (now >= end) break;
    const target = Math.min(end, nextSample, actions[next]?.at ?? end);
    await env.timers.runUntil(target, o.settle);
  }
  return series;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** What a run's summary is computed from besides the series. */
export interface SummaryInputs {
  readonly scenario: Scenario;
  readonly start: number;
  readonly env: SimulationEnvironment;
  readonly series: readonly FleetSample[];
  readonly pods: PodTimes;
  readonly disruptions: ReadonlyMap<string, number>;
  readonly decisions: ReadonlyMap<string, number>;
  readonly events: ReadonlyMap<string, number>;
  /** Evictions the run's autoscaler made that the API server accepted. */
  readonly evicted: number;
}

/** Each sample's lower bound per hour held until the next sample (the last until `hours`). */
export function integratedLowerBound(series: readonly FleetSample[], hours: number): number {
  let sum = 0;
  for (let i = 0; i < series.length; i++) {
    const until = Math.min(series[i + 1]?.hour ?? hours, hours);
    sum += series[i]!.lowerBoundPerHour * Math.max(0, until - series[i]!.hour);
  }
  return sum;
}

/** The summary of one run (pure over its inputs): ledger, series and pod times. */
export function summariseRun(i: SummaryInputs): SimulationSummary {
  const { scenario, start, env, series } = i;
  const end = start + scenario.duration;
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
  const { created, bound } = i.pods;
  const waits: number[] = [];
  for (const [uid, at] of created) waits.push(((bound.get(uid) ?? end) - at) / 1000);
  waits.sort((a, b) => a - b);
  const total = env.provider.ledger.costBetween(start, end);
  const hours = (end - start) / HOUR;
  const costBound = integratedLowerBound(series, hours);
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
    cost: {
      total: round(total, 4),
      averagePerHour: round(total / hours, 4),
      lowerBound: round(costBound, 4),
      lowerBoundRatio: costBound > 0 ? round(total / costBound, 4) : 0,
    },
    utilisation: {
      cpu: cpuAlloc === 0 ? 0 : round(cpuReq / cpuAlloc, 4),
      memory: memAlloc === 0 ? 0 : round(memReq / memAlloc, 4),
    },
    pods: {
      created: created.size,
      scheduled: [...created.keys()].filter((uid) => bound.has(uid)).length,
      pendingAtEnd: series.at(-1)?.podsPending ?? 0,
      evicted: i.evicted,
      pendingSeconds: {
        p50: round(quantile(waits, 0.5), 1),
        p90: round(quantile(waits, 0.9), 1),
        p99: round(quantile(waits, 0.99), 1),
        max: round(waits.at(-1) ?? 0, 1),
      },
    },
    disruptions: sortedRecord(i.disruptions),
    decisions: sortedRecord(i.decisions),
    events: sortedRecord(i.events),
  };
}
