/** When the provisioner first saw a pod, first decided about it, and first found it room. */
export interface PodSchedulingTime {
  /** First pass that considered the pod (Karpenter's pod ack time). */
  readonly ackedMs: number;
  /** First pass that placed it or gave up on it (scheduled or unschedulable). */
  readonly decidedMs?: number;
  /** First pass that placed it (on a node or a new NodeClaim): where the provisioning_* waits start. */
  readonly scheduledMs?: number;
}

/**
 * The provisioner's milestones per pod, by `namespace/name`, as Karpenter's cluster state keeps
 * them for its `karpenter_pods_provisioning_*` and scheduling-decision metrics. Only the first of
 * each is kept. Entries go when the pod is deleted, or when the pod metrics saw it start or
 * finish (`forget`), so the map is bounded by the pods that exist.
 */
export class PodSchedulingTimes {
  readonly #times = new Map<string, PodSchedulingTime>();

  /** Records that a pass considered the pod, unless one already did. */
  ack(id: string, nowMs: number): void {
    if (!this.#times.has(id)) this.#times.set(id, { ackedMs: nowMs });
  }

  /**
   * Records the pass's decision about an acknowledged pod (`scheduled`: it was placed). Returns
   * the milliseconds from its ack to this decision when this is its first decision, else undefined.
   */
  decide(id: string, nowMs: number, scheduled: boolean): number | undefined {
    const times = this.#times.get(id);
    if (times === undefined) return undefined;
    const first = times.decidedMs === undefined;
    this.#times.set(id, {
      ...times,
      decidedMs: times.decidedMs ?? nowMs,
      ...(scheduled && times.scheduledMs === undefined ? { scheduledMs: nowMs } : {}),
    });
    return first ? nowMs - times.ackedMs : undefined;
  }

  of(id: string): PodSchedulingTime | undefined {
    return this.#times.get(id);
  }

  forget(id: string): void {
    this.#times.delete(id);
  }

  get size(): number {
    return this.#times.size;
  }
}
