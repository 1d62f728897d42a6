import type { NodeSelectorTerm } from '../../../apis/kubernetes/node-selector.js';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import type { NodeTaint, Toleration } from '../../../apis/kubernetes/taint.js';
import { hostPortConflict } from '../../../scheduling/pod/host-ports.js';
import { nodeSelectorTermRequirements } from '../../../scheduling/pod/node-requirements.js';
import type { Requirements } from '../../../scheduling/requirements/requirements.js';
import { toleratesTaint } from '../../../scheduling/taints/tolerations.js';
import { type NodeInfo, UnschedulableTaint } from './node-info.js';
import type { PodInfo } from './pod-info.js';

/** kube-scheduler's per-node failure reasons, as they appear in FailedScheduling messages. */
export const FilterReasons = {
  Unschedulable: 'node(s) were unschedulable',
  NodeAffinity: "node(s) didn't match Pod's node affinity/selector",
  HostPorts: "node(s) didn't have free ports for the requested pod ports",
  TooManyPods: 'Too many pods',
} as const;

/** `node(s) had untolerated taint {key: value}`. */
export function untoleratedTaintReason(taint: NodeTaint): string {
  return `node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`;
}

/** `Insufficient <resource>`. */
export function insufficientReason(resource: string): string {
  return `Insufficient ${resource}`;
}

/** NodeUnschedulable: a cordoned node takes only pods tolerating its unschedulable taint. */
export function unschedulableFilter(pod: PodInfo, node: NodeInfo): string | undefined {
  if (node.node?.spec?.unschedulable !== true) return undefined;
  const tolerated = (pod.pod.spec.tolerations ?? []).some((t) => toleratesTaint(t, UnschedulableTaint));
  return tolerated ? undefined : FilterReasons.Unschedulable;
}

/** TaintToleration: every NoSchedule and NoExecute taint (not-ready included) must be tolerated. */
export function taintFilter(pod: PodInfo, node: NodeInfo): string | undefined {
  const taint = untoleratedSchedulingTaint(node.effectiveTaints(), pod.pod.spec.tolerations ?? []);
  return taint === undefined ? undefined : untoleratedTaintReason(taint);
}

/** The first NoSchedule or NoExecute taint no toleration tolerates (PreferNoSchedule only scores). */
export function untoleratedSchedulingTaint(
  taints: readonly NodeTaint[],
  tolerations: readonly Toleration[],
): NodeTaint | undefined {
  for (const taint of taints) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!tolerations.some((t) => toleratesTaint(t, taint))) return taint;
  }
  return undefined;
}

interface CompiledTerm {
  readonly requirements: Requirements | undefined;
  readonly fields: NonNullable<NodeSelectorTerm['matchFields']>;
}

/** A pod's nodeSelector and required node affinity, compiled once, tested per node. */
export type NodeAffinityMatcher = (node: NodeInfo) => boolean;

/**
 * NodeAffinity: every nodeSelector label, and at least one required node selector term (its
 * expressions and `metadata.name` fields ANDed; an empty term matches nothing; a term the
 * requirement algebra cannot read matches nothing, as kube-scheduler treats a parse error).
 */
export function nodeAffinityMatcher(
  spec: Pick<Pod['spec'], 'nodeSelector' | 'affinity'>,
): NodeAffinityMatcher {
  const selector = Object.entries(spec.nodeSelector ?? {});
  const terms =
    spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  const compiled: CompiledTerm[] | undefined = terms?.map((term) => {
    const fields = term.matchFields ?? [];
    if ((term.matchExpressions ?? []).length === 0) return { requirements: undefined, fields };
    try {
      return { requirements: nodeSelectorTermRequirements(term), fields };
    } catch {
      return { requirements: undefined, fields: [] };
    }
  });
  return (node) => {
    const labels = node.labels;
    for (const [key, value] of selector) if (labels[key] !== value) return false;
    if (compiled === undefined) return true;
    return compiled.some((term) => {
      if (term.requirements === undefined && term.fields.length === 0) return false;
      if (term.requirements !== undefined && !node.labelRequirements.isCompatible(term.requirements))
        return false;
      return term.fields.every((f) => {
        const listed = f.values.includes(node.name);
        return f.operator === 'In' ? listed : !listed;
      });
    });
  };
}

/** NodePorts: no host port of the pod may collide with one a pod on the node holds. */
export function hostPortsFilter(pod: PodInfo, node: NodeInfo): string | undefined {
  if (pod.hostPorts.length === 0) return undefined;
  for (const other of node.pods.values()) {
    if (other.hostPorts.length > 0 && hostPortConflict(other.hostPorts, pod.hostPorts) !== undefined) {
      return FilterReasons.HostPorts;
    }
  }
  return undefined;
}

/**
 * NodeResourcesFit: one more pod within the node's `pods`, and every resource the pod requests
 * (a positive amount) within allocatable minus what the node's pods request. Returns every
 * shortfall, as kube-scheduler lists them all.
 */
export function resourcesFilter(pod: PodInfo, node: NodeInfo): string[] | undefined {
  const reasons: string[] = [];
  const podsAllowed = node.allocatable.get('pods')?.toUnits() ?? 0n;
  if (BigInt(node.pods.size + 1) > podsAllowed) reasons.push(FilterReasons.TooManyPods);
  for (const [name, q] of pod.requests) {
    if (name === 'pods' || q.nanos <= 0n) continue;
    const free = (node.allocatable.get(name)?.nanos ?? 0n) - (node.requested.get(name) ?? 0n);
    if (q.nanos > free) reasons.push(insufficientReason(name));
  }
  return reasons.length > 0 ? reasons : undefined;
}
