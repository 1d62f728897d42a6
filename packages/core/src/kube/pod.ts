import type { KubeObject } from './object.js';

/** The few Pod fields API-server semantics (eviction, PDBs, graceful deletion) depend on. */
export interface PodLike extends KubeObject {
  spec?: { nodeName?: string; terminationGracePeriodSeconds?: number };
  status?: {
    phase?: string;
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
  };
}

/** `podutil.IsPodReady`: the Ready condition is True. */
export function isPodReady(pod: PodLike): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** Succeeded or Failed: the pod will never run again. */
export function isPodTerminal(pod: PodLike): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}
