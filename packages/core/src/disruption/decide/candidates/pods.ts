import { durationMs } from '../../../apis/common/duration.js';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import { Annotations, Taints } from '../../../apis/labels.js';
import { podCreationMillis } from '../../../scheduling/pod/identity.js';
import { toleratesTaint } from '../../../scheduling/taints/tolerations.js';

function ownedBy(pod: Pod, kind: string): boolean {
  return (pod.metadata.ownerReferences ?? []).some((o) => o.kind === kind);
}

/** Running or about to: not finished and not being deleted. */
export function isActivePod(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && pod.metadata.deletionTimestamp === undefined;
}

/** A pod kube-scheduler nominated to the node but that is not bound to it yet. */
export function isNominatedPod(pod: Pod): boolean {
  return pod.spec.nodeName === undefined || pod.spec.nodeName === '';
}

/**
 * A pod that must find a new home when its node goes (Karpenter's IsReschedulable): bound,
 * active (or a terminating StatefulSet pod, whose replacement needs room before it can start),
 * not owned by a DaemonSet (one runs on every node) and not a static pod (owned by its Node).
 */
export function isReschedulablePod(pod: Pod): boolean {
  if (isNominatedPod(pod)) return false;
  const phase = pod.status?.phase;
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  const active = !terminal && pod.metadata.deletionTimestamp === undefined;
  const terminatingStatefulSet =
    !terminal && pod.metadata.deletionTimestamp !== undefined && ownedBy(pod, 'StatefulSet');
  return (active || terminatingStatefulSet) && !ownedBy(pod, 'DaemonSet') && !ownedBy(pod, 'Node');
}

/** A pod the drain would evict: active, not tolerating the disrupted taint, not static. */
export function isEvictablePod(pod: Pod): boolean {
  if (!isActivePod(pod) || ownedBy(pod, 'Node')) return false;
  return !(pod.spec.tolerations ?? []).some((t) => toleratesTaint(t, Taints.Disrupted));
}

/** The pod's Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * Why `karpenter.sh/do-not-disrupt` protects an active pod at `now`, or undefined: `"true"`
 * always; a duration (`30m`) until that long after the pod was created; any other value
 * protects nothing (upstream ignores it too).
 */
export function doNotDisruptProtection(pod: Pod, now: number): string | undefined {
  if (!isActivePod(pod)) return undefined;
  const value = pod.metadata.annotations?.[Annotations.DoNotDisrupt];
  if (value === undefined) return undefined;
  if (value === 'true') return `has ${Annotations.DoNotDisrupt}`;
  const ms = durationMs(value);
  if (ms === undefined || ms <= 0) return undefined;
  if (!Number.isFinite(ms)) return `has ${Annotations.DoNotDisrupt}: ${value}`;
  const created = podCreationMillis(pod);
  const until = created + ms;
  if (!Number.isFinite(created)) return `has ${Annotations.DoNotDisrupt}: ${value} and no creation time`;
  if (until <= now) return undefined;
  return `has ${Annotations.DoNotDisrupt}: ${value} (until ${new Date(until).toISOString()})`;
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
