import { durationMs } from '../../../apis/common/duration.js';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import { Annotations, Taints } from '../../../apis/labels.js';
import { isMirrorPod, isPodActive } from '../../../kube/pod.js';
import { podCreationMillis } from '../../../scheduling/pod/identity.js';
import { toleratesTaint } from '../../../scheduling/taints/tolerations.js';

/** A pod kube-scheduler nominated to the node but that is not bound to it yet. */
export function isNominatedPod(pod: Pod): boolean {
  return pod.spec.nodeName === undefined || pod.spec.nodeName === '';
}

/** A pod the drain would evict: active, not tolerating the disrupted taint, not static. */
export function isEvictablePod(pod: Pod): boolean {
  if (!isPodActive(pod) || isMirrorPod(pod)) return false;
  return !(pod.spec.tolerations ?? []).some((t) => toleratesTaint(t, Taints.Disrupted));
}

/** How `karpenter.sh/do-not-disrupt` protects a pod: until when (ms; Infinity: always), and the words for it. */
export interface DoNotDisruptRule {
  readonly until: number;
  readonly message: string;
}

/**
 * The `karpenter.sh/do-not-disrupt` rule of an active pod, or undefined when it has none:
 * `"true"` protects always; a duration (`30m`) until that long after the pod was created; any
 * other value protects nothing (upstream ignores it too).
 */
export function doNotDisruptRule(pod: Pod): DoNotDisruptRule | undefined {
  if (!isPodActive(pod)) return undefined;
  const value = pod.metadata.annotations?.[Annotations.DoNotDisrupt];
  if (value === undefined) return undefined;
  if (value === 'true')
    return { until: Number.POSITIVE_INFINITY, message: `has ${Annotations.DoNotDisrupt}` };
  const ms = durationMs(value);
  if (ms === undefined || ms <= 0) return undefined;
  if (!Number.isFinite(ms))
    return { until: Number.POSITIVE_INFINITY, message: `has ${Annotations.DoNotDisrupt}: ${value}` };
  const created = podCreationMillis(pod);
  if (!Number.isFinite(created))
    return {
      until: Number.POSITIVE_INFINITY,
      message: `has ${Annotations.DoNotDisrupt}: ${value} and no creation time`,
    };
  const until = created + ms;
  return {
    until,
    message: `has ${Annotations.DoNotDisrupt}: ${value} (until ${new Date(until).toISOString()})`,
  };
}

const DeletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';

/**
 * Karpenter's cost of evicting a pod: 1 + deletionCost / 2^27 + priority / 2^25, clamped to
 * [-10, 10]. Pods that are cheap to move (low priority, low deletion cost) cost less.
 */
export function evictionCost(pod: Pod): number {
  let cost = 1;
  const deletionCost = pod.metadata.annotations?.[DeletionCostAnnotation];
  if (deletionCost !== undefined && /^-?[0-9]+$/.test(deletionCost)) cost += Number(deletionCost) / 2 ** 27;
  if (pod.spec.priority !== undefined) cost += pod.spec.priority / 2 ** 25;
  return Math.min(10, Math.max(-10, cost));
}
