import type { NodeInfo } from './node-info.js';
import type { PodInfo } from './pod-info.js';

/** kube-scheduler's MaxNodeScore. */
export const MAX_NODE_SCORE = 100n;

function leastAllocated(requested: bigint, capacity: bigint): bigint {
  if (capacity <= 0n || requested > capacity) return 0n;
  return ((capacity - requested) * MAX_NODE_SCORE) / capacity;
}

/**
 * NodeResourcesFit's LeastAllocated score (the default profile's strategy), with cpu and
 * memory weighted 1 each: per resource `(allocatable - requested) * 100 / allocatable`, where
 * requested counts the node's pods and this one with kube-scheduler's defaults for containers
 * that request nothing (100m cpu, 200Mi memory); integer arithmetic, as upstream.
 */
export function leastAllocatedScore(pod: PodInfo, node: NodeInfo): number {
  const cpu = leastAllocated(
    node.nonZeroMilliCpu + pod.nonZeroMilliCpu,
    node.allocatable.get('cpu')?.toMilli() ?? 0n,
  );
  const memory = leastAllocated(
    node.nonZeroMemory + pod.nonZeroMemory,
    node.allocatable.get('memory')?.toUnits() ?? 0n,
  );
  return Number((cpu + memory) / 2n);
}
