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
 * Counts nodes by capacity type, pods by state and requests against allocatable, and bounds the
 * cost of holding the requested pods on `boundTypes` (pure); `disruptions` is passed through.
 * `memo`, when given, parses each pod's requests once across samples.
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
    const alloc = parseResourceList(n.status?.allocatable as Record<string, string> | undefined);
    cpuAllocatable += alloc.get('cpu')?.toNumber() ?? 0;
    memoryAllocatable += alloc.get('memory')?.toNumber() ?? 0;
  }
  let pending = 0;
  let running = 0;
  let cpuRequested = 0;
  let memoryRequested = 0;
  const requested: ResourceList[] = [];
  for (const p of pods) {
    if (!active(p)) continue;
    const requests = memo?.of(p) ?? podRequests(p);
    if (p.metadata.deletionTimestamp === undefined && !isOwnedByDaemonSet(p)) requested.push(requests);
    const node = p.spec.nodeName;
    if (node === undefined || node === '') {
      if (p.metadata.deletionTimestamp === undefined) pending++;
      continue;
    }
    if (!names.has(node)) continue;
    running++;
    cpuRequested += requests.get('cpu')?.toNumber() ?? 0;
    memoryRequested += requests.get('memory')?.toNumber() ?? 0;
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
