import type { Pod } from '../apis/kubernetes/pod.js';
import type { NodePool } from '../apis/v1/nodepool.js';
import type { KubeObject } from '../kube/object.js';
import type { PublishedEvent } from '../operator/runtime/event-recorder.js';
import { type CapacityRef, describeCapacity } from '../state/snapshot.js';

/**
 * Reasons of the events the provisioner publishes, in one place so users can filter on them
 * (`kubectl get events --field-selector reason=FailedScheduling`).
 */
export const ProvisioningEventReasons = {
  /** Pod: placed on a NodeClaim being launched or on an existing node; kube-scheduler binds it there. */
  Nominated: 'Nominated',
  /** Pod: no NodePool can launch a node for it (or the NodeClaim could not be created), and why. */
  FailedScheduling: 'FailedScheduling',
  /** Pod: rejected by the Pod schema, so it is ignored until fixed. */
  InvalidPod: 'InvalidPod',
  /** NodePool: not used for provisioning (not Ready, deleting, invalid, no instance types). */
  NodePoolSkipped: 'NodePoolSkipped',
  /**
   * NodePool: none of its instance types is compatible with its requirements and has an
   * available offering they allow, so it launches nothing (Karpenter's reason and wording).
   */
  NoCompatibleInstanceTypes: 'NoCompatibleInstanceTypes',
} as const;

/** How long a pod's FailedScheduling keeps its repeats away (Karpenter's 5 minutes). */
export const FailedSchedulingDedupeMs = 5 * 60_000;

/**
 * `Nominated`: where the pod should schedule, as Karpenter words it. Once per pod per 2 minutes
 * (a pod still waiting is nominated again at every pass), and only when `limiter` (shared by
 * every nomination: Karpenter allows 5 a second, bursts of 10) has room.
 */
export function nominatedEvent(
  pod: Pod,
  target: CapacityRef,
  limiter?: { tryAccept(): boolean },
): PublishedEvent {
  return {
    object: pod,
    type: 'Normal',
    reason: ProvisioningEventReasons.Nominated,
    message: `Pod should schedule on: ${describeCapacity(target)}`,
    dedupe: { values: [podIdentity(pod)] },
    ...(limiter === undefined ? {} : { rateLimiter: limiter }),
  };
}

/** `FailedScheduling` with the solver's (or the create step's) complete reason; once per pod per 5 minutes. */
export function failedSchedulingEvent(pod: Pod, reason: string): PublishedEvent {
  return {
    object: pod,
    type: 'Warning',
    reason: ProvisioningEventReasons.FailedScheduling,
    message: `Failed to schedule pod, ${reason}`,
    dedupe: { values: [podIdentity(pod)], timeoutMs: FailedSchedulingDedupeMs },
  };
}

/** The pod's uid, or its namespace and name where it has none (objects built by hand). */
function podIdentity(pod: Pod): string {
  return pod.metadata.uid ?? `${pod.metadata.namespace ?? 'default'}/${pod.metadata.name}`;
}

/** `InvalidPod` on an object the Pod schema rejects. */
export function invalidPodEvent(pod: KubeObject, message: string): PublishedEvent {
  return {
    object: pod,
    type: 'Warning',
    reason: ProvisioningEventReasons.InvalidPod,
    message: `Ignoring pod: it is not a valid Pod (${message.replace(/\s*\n\s*/g, '; ')})`,
  };
}

/** `NodePoolSkipped`: why no node is launched from this pool for the pending pods. */
export function nodePoolSkippedEvent(nodePool: KubeObject, reason: string): PublishedEvent {
  return {
    object: nodePool,
    type: 'Warning',
    reason: ProvisioningEventReasons.NodePoolSkipped,
    message: `NodePool ${nodePool.metadata.name} is not used to launch nodes for pending pods: ${reason}`,
  };
}

/**
 * What keeps a NodePool from being Ready, beyond Ready's own reason: each condition that is not
 * True (`NodeClassReady=False (NodeClassNotFound: ...)`), else Ready's message.
 */
export function notReadyDetail(nodePool: NodePool): string | undefined {
  const conditions = nodePool.status?.conditions ?? [];
  const failing = conditions
    .filter((c) => c.type !== 'Ready' && c.status !== 'True')
    .map((c) => {
      const why = [c.reason, c.message].filter((x) => x !== undefined && x !== '').join(': ');
      return `${c.type}=${c.status}${why === '' ? '' : ` (${why})`}`;
    });
  if (failing.length > 0) return failing.join('; ');
  const message = conditions.find((c) => c.type === 'Ready')?.message;
  return message === undefined || message === '' ? undefined : message;
}

/** `NoCompatibleInstanceTypes`: the NodePool's requirements leave it no type to launch. */
export function noCompatibleInstanceTypesEvent(nodePool: KubeObject): PublishedEvent {
  return {
    object: nodePool,
    type: 'Warning',
    reason: ProvisioningEventReasons.NoCompatibleInstanceTypes,
    message: 'NodePool requirements filtered out all compatible available instance types',
  };
}
