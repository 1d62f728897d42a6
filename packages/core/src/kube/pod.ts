import type { KubeObject } from './object.js';

/** The few Pod fields API-server semantics (eviction, PDBs, graceful deletion) depend on. */
export interface PodLike extends KubeObject {
  spec?: { nodeName?: string; terminationGracePeriodSeconds?: number };
  status?: {
    phase?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
}

// The pod predicates, in one place: the drain, disruption, scheduling, cluster state and metrics
// all ask these questions and must agree on the answers. Each takes only the fields it reads, so
// any pod type (the apis schema's, PodLike, a test's literal) fits.

type WithStatus = {
  readonly status?: {
    readonly phase?: string;
    readonly conditions?: readonly { type: string; status: string }[];
  };
};
type WithMetadata = {
  readonly metadata: {
    readonly deletionTimestamp?: string;
    readonly ownerReferences?: readonly { readonly kind: string }[];
  };
};

/** `podutil.IsPodReady`: the Ready condition is True. */
export function isPodReady(pod: WithStatus): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** Succeeded or Failed: the pod will never run again, holds no resources and counts for nothing. */
export function isPodTerminal(pod: WithStatus): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Being deleted: it has a deletion timestamp. */
export function isPodTerminating(pod: WithMetadata): boolean {
  return pod.metadata.deletionTimestamp !== undefined;
}

/** Running or about to: neither terminal nor being deleted. */
export function isPodActive(pod: WithStatus & WithMetadata): boolean {
  return !isPodTerminal(pod) && !isPodTerminating(pod);
}

/**
 * Whether an owner reference of `kind` is on the pod. Matched by kind alone: the API server
 * serves each owner kind asked about here (DaemonSet, StatefulSet, Node) under one group.
 */
export function isOwnedBy(pod: WithMetadata, kind: string): boolean {
  return (pod.metadata.ownerReferences ?? []).some((o) => o.kind === kind);
}

/** The name of the pod's owner of `kind` (matched as isOwnedBy does), if it has one. */
export function ownerName(
  pod: {
    readonly metadata: {
      readonly ownerReferences?: readonly { readonly kind: string; readonly name: string }[];
    };
  },
  kind: string,
): string | undefined {
  return (pod.metadata.ownerReferences ?? []).find((o) => o.kind === kind)?.name;
}

/** A DaemonSet's pod: one runs on every node, so it never needs a new home. */
export function isOwnedByDaemonSet(pod: WithMetadata): boolean {
  return isOwnedBy(pod, 'DaemonSet');
}

/**
 * A static pod's mirror (the kubelet owns it and records its Node as the owner): it cannot be
 * evicted through the API and goes with its node.
 */
export function isMirrorPod(pod: WithMetadata): boolean {
  return isOwnedBy(pod, 'Node');
}

/**
 * A pod that must find a new home when its node goes (Karpenter's IsReschedulable): bound,
 * active (or a terminating StatefulSet pod, whose replacement needs room before it can start),
 * not a DaemonSet's and not a mirror pod.
 */
export function isReschedulable(
  pod: WithStatus & WithMetadata & { readonly spec?: { readonly nodeName?: string } },
): boolean {
  if (pod.spec?.nodeName === undefined || pod.spec.nodeName === '') return false;
  const terminal = isPodTerminal(pod);
  const active = !terminal && !isPodTerminating(pod);
  const terminatingStatefulSet = !terminal && isPodTerminating(pod) && isOwnedBy(pod, 'StatefulSet');
  return (active || terminatingStatefulSet) && !isOwnedByDaemonSet(pod) && !isMirrorPod(pod);
}
