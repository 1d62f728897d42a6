import { durationMs } from '../../apis/common/duration.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { Toleration } from '../../apis/kubernetes/taint.js';
import { Annotations, Taints } from '../../apis/labels.js';
import { parseTime } from '../../kube/object.js';
import { isMirrorPod, isOwnedByDaemonSet, isPodTerminal, isPodTerminating } from '../../kube/pod.js';

/** Priority classes whose pods drain last (Kubernetes' graceful node shutdown order). */
const CriticalPriorityClasses: ReadonlySet<string> = new Set([
  'system-cluster-critical',
  'system-node-critical',
]);

/** A terminating pod this long past its deletion time no longer holds up the drain (Karpenter: 1 min). */
const StuckTerminatingMs = 60_000;

/** Kubernetes' default pod terminationGracePeriodSeconds. */
const DEFAULT_POD_GRACE_SECONDS = 30;

const isCritical = (pod: Pod) => CriticalPriorityClasses.has(pod.spec.priorityClassName ?? '');

function tolerates(toleration: Toleration, taint: { key: string; effect: string; value?: string }): boolean {
  const effect = toleration.effect ?? '';
  if (effect !== '' && effect !== taint.effect) return false;
  const key = toleration.key ?? '';
  if (key !== '' && key !== taint.key) return false;
  if ((toleration.operator ?? 'Equal') === 'Exists') return true;
  return (toleration.value ?? '') === (taint.value ?? '');
}

/** Pods that tolerate `karpenter.sh/disruption:NoSchedule` would just come back: Karpenter leaves them. */
function toleratesDisruptedTaint(pod: Pod): boolean {
  return (pod.spec.tolerations ?? []).some((t) => tolerates(t, Taints.Disrupted));
}

/** A terminating pod past its deletion time by more than a minute (the kubelet is gone or stuck). */
function isStuckTerminating(pod: Pod, now: number): boolean {
  const deletion = pod.metadata.deletionTimestamp;
  return deletion !== undefined && now - parseTime(deletion) > StuckTerminatingMs;
}

/**
 * Whether the pod's `karpenter.sh/do-not-disrupt` protects it now: `"true"` always; a duration
 * (`30m`) until that long after the pod started (always, while it has not started); any other
 * value does not protect (as upstream, which also warns about it).
 */
export function isDoNotDisruptActive(pod: Pod, now: number): boolean {
  const value = pod.metadata.annotations?.[Annotations.DoNotDisrupt];
  if (value === undefined) return false;
  if (value === 'true') return true;
  const ms = durationMs(value);
  if (ms === undefined || ms <= 0 || !Number.isFinite(ms)) return false;
  const started = pod.status?.startTime;
  if (started === undefined) return true;
  return now - parseTime(started) < ms;
}

/** The drain waits for this pod to go: not terminal, not tolerating the disrupted taint, not stuck, not static. */
export function isWaitingEviction(pod: Pod, now: number): boolean {
  return (
    !isPodTerminal(pod) && !toleratesDisruptedTaint(pod) && !isStuckTerminating(pod, now) && !isMirrorPod(pod)
  );
}

/** Karpenter may evict this pod now: active, not tolerating the taint, not static, no active do-not-disrupt. */
function isEvictable(pod: Pod, now: number): boolean {
  return (
    !isPodTerminal(pod) &&
    !isPodTerminating(pod) &&
    !toleratesDisruptedTaint(pod) &&
    !isMirrorPod(pod) &&
    !isDoNotDisruptActive(pod, now)
  );
}

/** The drain tier of a pod: 0 non-critical non-daemon, 1 non-critical daemon, 2 critical non-daemon, 3 critical daemon. */
export function drainTier(pod: Pod): 0 | 1 | 2 | 3 {
  return ((isCritical(pod) ? 2 : 0) + (isOwnedByDaemonSet(pod) ? 1 : 0)) as 0 | 1 | 2 | 3;
}

/** A pod to delete outright so it is gone by the node's termination time. */
export interface ForcedDeletion {
  readonly pod: Pod;
  /** The grace the pod gets: what is left until the termination time, at most its own. */
  readonly gracePeriodSeconds: number;
}

/** What one drain pass does. */
export interface DrainPlan {
  /** Pods the drain still waits for; the drain is done when this is 0. */
  readonly waiting: number;
  /** The tier being drained (the first with waiting pods), if any. */
  readonly tier?: number;
  /** Pods of that tier to evict through the Eviction API now. */
  readonly evict: readonly Pod[];
  /** Waiting pods in that tier Karpenter will not evict (do-not-disrupt), left for the grace period. */
  readonly protected: readonly Pod[];
  /** Pods to delete bypassing PDBs and do-not-disrupt because the termination time is near. */
  readonly forceDelete: readonly ForcedDeletion[];
}

/**
 * One pass of Karpenter's drain over the pods bound to a node:
 * - with a termination time, any waiting pod whose own grace period would no longer fit is
 *   deleted with the grace that is left (and one already terminating past that time again,
 *   sooner), bypassing PDBs and do-not-disrupt;
 * - waiting pods are grouped in four tiers (non-critical non-daemon, non-critical daemon,
 *   critical non-daemon, critical daemon) and only the first non-empty tier is evicted, so
 *   DaemonSets keep serving until the workloads are gone and critical pods go last;
 * - pods with an active do-not-disrupt are waited for but not evicted.
 */
export function planDrain(pods: readonly Pod[], now: number, terminationTime: number | undefined): DrainPlan {
  const waiting = pods.filter((p) => isWaitingEviction(p, now));
  const forceDelete: ForcedDeletion[] = [];
  if (terminationTime !== undefined) {
    const left = Math.max(0, Math.floor((terminationTime - now) / 1000));
    for (const pod of waiting) {
      const own = pod.spec.terminationGracePeriodSeconds ?? DEFAULT_POD_GRACE_SECONDS;
      if (!isPodTerminating(pod)) {
        if (now >= terminationTime - own * 1000)
          forceDelete.push({ pod, gracePeriodSeconds: Math.min(own, left) });
      } else if (parseTime(pod.metadata.deletionTimestamp!) > terminationTime) {
        forceDelete.push({ pod, gracePeriodSeconds: left });
      }
    }
  }
  const tiers: Pod[][] = [[], [], [], []];
  for (const pod of waiting) tiers[drainTier(pod)]!.push(pod);
  const tier = tiers.findIndex((t) => t.length > 0);
  if (tier < 0) return { waiting: 0, evict: [], protected: [], forceDelete };
  const current = tiers[tier]!;
  const forced = new Set(forceDelete.map((f) => f.pod));
  return {
    waiting: waiting.length,
    tier,
    evict: current.filter((p) => isEvictable(p, now) && !forced.has(p)),
    protected: current.filter((p) => !isPodTerminating(p) && isDoNotDisruptActive(p, now) && !forced.has(p)),
    forceDelete,
  };
}
