import {
  FilterReasons,
  hostPortsFilter,
  nodeAffinityMatcher,
  resourcesFilter,
  taintFilter,
  unschedulableFilter,
  untoleratedSchedulingTaint,
} from './filters.js';
import { affinityFilter, type PlacedPod } from './inter-pod-affinity.js';
import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';
import { leastAllocatedScore } from './score.js';
import { spreadFilter } from './topology-spread.js';

/** The cluster as one scheduling cycle sees it. */
export interface SchedulingSnapshot {
  /** Sorted by name: ties in score go to the first. */
  readonly nodes: readonly NodeInfo[];
  /** Bound pods with required anti-affinity terms (they constrain every incoming pod). */
  readonly withAntiAffinity: Iterable<PlacedPod>;
  readonly namespaceLabels: (namespace: string) => Readonly<Record<string, string>> | undefined;
}

/** The outcome of one scheduling attempt. */
export type ScheduleResult =
  | { readonly scheduled: true; readonly node: NodeInfo; readonly score: number }
  | {
      readonly scheduled: false;
      /** kube-scheduler's FailedScheduling message. */
      readonly message: string;
      /** Per node name, the reasons of the first filter that rejected it. */
      readonly reasons: ReadonlyMap<string, readonly string[]>;
    };

/** kube-scheduler's message when the cluster has no nodes at all. */
export const NO_NODES_MESSAGE = 'no nodes available to schedule pods';

/**
 * One scheduling cycle of kube-scheduler's default profile for one pod: the filters in the
 * profile's order (NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts,
 * NodeResourcesFit, PodTopologySpread, InterPodAffinity), each node stopping at its first
 * failing filter; then LeastAllocated scoring, highest score first, ties to the node first by
 * name (kube-scheduler picks among ties at random). Pure: the snapshot is not changed.
 */
export function schedulePod(pod: PodInfo, snapshot: SchedulingSnapshot): ScheduleResult {
  const nodes = snapshot.nodes;
  const affinity = nodeAffinityMatcher(pod.pod.spec);
  const tolerations = pod.pod.spec.tolerations ?? [];
  const toleratesAll = (node: NodeInfo) =>
    untoleratedSchedulingTaint(node.effectiveTaints(), tolerations) === undefined;
  let spread: ReturnType<typeof spreadFilter> | null = null;
  let interPod: ReturnType<typeof affinityFilter> | null = null;
  const reasons = new Map<string, readonly string[]>();
  let best: { node: NodeInfo; score: number } | undefined;
  for (const node of nodes) {
    const failed = firstFailure(pod, node, affinity, () => {
      if (spread === null) spread = spreadFilter(pod, nodes, affinity, toleratesAll);
      if (spread !== undefined) {
        const r = spread.check(node);
        if (r !== undefined) return r;
      }
      if (interPod === null)
        interPod = affinityFilter(pod, nodes, snapshot.withAntiAffinity, snapshot.namespaceLabels);
      return interPod?.check(node);
    });
    if (failed !== undefined) {
      reasons.set(node.name, failed);
      continue;
    }
    const score = leastAllocatedScore(pod, node);
    if (best === undefined || score > best.score) best = { node, score };
  }
  if (best !== undefined) return { scheduled: true, node: best.node, score: best.score };
  return { scheduled: false, message: fitErrorMessage(nodes.length, reasons), reasons };
}

/**
 * The reasons of the first filter (in the default profile's order) that rejects `node` for
 * `pod`, or undefined when every filter passes; `topology` runs the spread and inter-pod
 * affinity filters, which need the whole snapshot, and only when the per-node ones pass.
 */
export function firstFailure(
  pod: PodInfo,
  node: NodeInfo,
  affinity: (node: NodeInfo) => boolean,
  topology: () => string | undefined,
): readonly string[] | undefined {
  const unschedulable = unschedulableFilter(pod, node);
  if (unschedulable !== undefined) return [unschedulable];
  const taint = taintFilter(pod, node);
  if (taint !== undefined) return [taint];
  if (!affinity(node)) return [FilterReasons.NodeAffinity];
  const ports = hostPortsFilter(pod, node);
  if (ports !== undefined) return [ports];
  const resources = resourcesFilter(pod, node);
  if (resources !== undefined) return resources;
  const t = topology();
  return t === undefined ? undefined : [t];
}

/**
 * kube-scheduler's FitError text: `0/N nodes are available: ` and a histogram of reasons
 * (`count reason`, sorted as strings, comma-separated), ending in a period. Preemption is not
 * simulated, so the `preemption: ...` sentence upstream appends is left out.
 */
export function fitErrorMessage(nodeCount: number, reasons: ReadonlyMap<string, readonly string[]>): string {
  const histogram = new Map<string, number>();
  for (const list of reasons.values()) for (const r of list) histogram.set(r, (histogram.get(r) ?? 0) + 1);
  return fitErrorMessageOf(nodeCount, histogram);
}

/** `fitErrorMessage` from the histogram itself: how many nodes gave each reason. */
export function fitErrorMessageOf(nodeCount: number, histogram: ReadonlyMap<string, number>): string {
  if (nodeCount === 0) return NO_NODES_MESSAGE;
  const parts = [...histogram].map(([reason, count]) => `${count} ${reason}`).sort();
  return `0/${nodeCount} nodes are available: ${parts.join(', ')}.`;
}
