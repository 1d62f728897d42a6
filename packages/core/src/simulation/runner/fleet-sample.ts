import type { Node } from '../../apis/kubernetes/node.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { Labels } from '../../apis/labels.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import { isOwnedByDaemonSet } from '../../kube/pod.js';
import { lowerBoundPerHour } from '../../scheduling/lower-bound/lower-bound.js';
import type { LowerBoundCache } from '../../scheduling/lower-bound/lower-bound-cache.js';
import { podRequests } from '../../scheduling/pod/requests.js';
import type { PodRequestsMemo } from '../../scheduling/pod/requests-memo.js';
import { parseResourceList, type ResourceList } from '../../scheduling/resources/resource-list.js';

/** The fleet at one instant of a simulation. */
export interface FleetSample {
  /** Hours since the start. */
  readonly hour: number;
  readonly nodes: number;
  readonly spotNodes: number;
  readonly onDemandNodes: number;
  readonly podsPending: number;
  readonly podsRunning: number;
  readonly costPerHour: number;
  /**
   * The cheapest capacity that could hold the pods requested now (pending or bound, DaemonSet
   * pods left out), per hour: `lowerBoundPerHour` over the offerings the NodePools may buy. No
   * autoscaler can pay less at this instant; 0 when no types were given.
   */
  readonly lowerBoundPerHour: number;
  /** Requested cores and bytes of bound pods, and what the nodes can allocate. */
  readonly cpuRequested: number;
  readonly cpuAllocatable: number;
  readonly memoryRequested: number;
  readonly memoryAllocatable: number;
  /**
   * Nodes disrupted since the previous sample (the first: since the start), by the reasons of
   * the summary's `disruptions`; `{}` when none. The increments of a run add up to its summary.
   */
  readonly disruptions: Readonly<Record<string, number>>;
}

const active = (p: Pod) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed';

/**
 * Each node's allocatable cores and bytes, parsed once per `status.allocatable` object: cluster
 * state hands out the same object while a node's allocatable is unchanged, and a week sampled
 * every minute over 500 nodes parsed it five million times.
 */
export class AllocatableMemo {
  readonly #kept = new WeakMap<object, { readonly cpu: number; readonly memory: number }>();

  of(node: Node): { readonly cpu: number; readonly memory: number } {
    const raw = node.status?.allocatable;
    const kept = raw === undefined ? undefined : this.#kept.get(raw);
    if (kept !== undefined) return kept;
    const alloc = parseResourceList(raw as Record<string, string> | undefined);
    const parsed = { cpu: alloc.get('cpu')?.toNumber() ?? 0, memory: alloc.get('memory')?.toNumber() ?? 0 };
    if (raw !== undefined) this.#kept.set(raw, parsed);
    return parsed;
  }
}

/** What a sample reads of one pod besides its phase and binding. */
interface PodFigures {
  readonly requests: ResourceList;
  readonly cpu: number;
  readonly memory: number;
  readonly daemon: boolean;
}

/**
 * Each pod's requests as numbers, and whether a DaemonSet owns it, worked out once per pod
 * object (cluster state replaces a pod's object on every change): a week sampled every minute
 * reads every pod ten thousand times.
 */
export class PodFiguresMemo {
  readonly #kept = new WeakMap<Pod, PodFigures>();
  readonly #requests: PodRequestsMemo | undefined;

  constructor(requests?: PodRequestsMemo) {
    this.#requests = requests;
  }

  of(pod: Pod): PodFigures {
    let kept = this.#kept.get(pod);
    if (kept === undefined) {
      const requests = this.#requests?.of(pod) ?? podRequests(pod);
      kept = {
        requests,
        cpu: requests.get('cpu')?.toNumber() ?? 0,
        memory: requests.get('memory')?.toNumber() ?? 0,
        daemon: isOwnedByDaemonSet(pod),
      };
      this.#kept.set(pod, kept);
    }
    return kept;
  }
}

/**
 * Counts nodes by capacity type, pods by state and requests against allocatable, and bounds the
 * cost of holding the requested pods on `boundTypes` (pure); `disruptions` is passed through.
 * `memo`, `allocatable` and `figures`, when given, parse each pod's requests and each node's
 * allocatable once across samples.
 */
export function sampleFleet(
  hour: number,
  nodes: readonly Node[],
  pods: readonly Pod[],
  costPerHour: number,
  disruptions: Readonly<Record<string, number>> = {},
  boundTypes: readonly InstanceType[] = [],
  bounds?: LowerBoundCache,
  memo?: PodRequestsMemo,
  allocatable: AllocatableMemo = new AllocatableMemo(),
  figures: PodFiguresMemo = new PodFiguresMemo(memo),
): FleetSample {
  let spot = 0;
  let onDemand = 0;
  let cpuAllocatable = 0;
  let memoryAllocatable = 0;
  const names = new Set<string>();
  for (const n of nodes) {
    names.add(n.metadata.name);
    const type = n.metadata.labels?.[Labels.CapacityType];
    if (type === 'spot') spot++;
    else onDemand++;
    const alloc = allocatable.of(n);
    cpuAllocatable += alloc.cpu;
    memoryAllocatable += alloc.memory;
  }
  let pending = 0;
  let running = 0;
  let cpuRequested = 0;
  let memoryRequested = 0;
  const requested: ResourceList[] = [];
  for (const p of pods) {
    if (!active(p)) continue;
    const pod = figures.of(p);
    if (p.metadata.deletionTimestamp === undefined && !pod.daemon) requested.push(pod.requests);
    const node = p.spec.nodeName;
    if (node === undefined || node === '') {
      if (p.metadata.deletionTimestamp === undefined) pending++;
      continue;
    }
    if (!names.has(node)) continue;
    running++;
    cpuRequested += pod.cpu;
    memoryRequested += pod.memory;
  }
  return {
    hour,
    nodes: nodes.length,
    spotNodes: spot,
    onDemandNodes: onDemand,
    podsPending: pending,
    podsRunning: running,
    costPerHour,
    lowerBoundPerHour:
      boundTypes.length === 0
        ? 0
        : (bounds?.perHour(requested, boundTypes) ?? lowerBoundPerHour(requested, boundTypes)),
    cpuRequested,
    cpuAllocatable,
    memoryRequested,
    memoryAllocatable,
    disruptions,
  };
}
