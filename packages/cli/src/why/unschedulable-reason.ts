/** The solver's reason for one unschedulable pod, taken apart per NodePool. */
export interface SplitReason {
  /** Per NodePool, in the order the solver tried them: what ruled it out. */
  readonly nodePools: ReadonlyArray<{ readonly nodePool: string; readonly reason: string }>;
  /** Why existing nodes refused the pod (`2 nodes: taint not tolerated`), if any did. */
  readonly existingNodes?: string;
  /** Any other statement (no NodePool at all, a deadline). */
  readonly other: readonly string[];
}

const PerPool = /^NodePool (\S+): (.*)$/s;
const PoolLimits = /^exceeds NodePool (\S+) limits: (.*)$/s;
const Existing = /^existing nodes: (.*)$/s;
/** Where one part ends: before a part of a known form only, as a whole reason may hold `; ` itself. */
const PartBoundary = /; (?=NodePool \S+: |exceeds NodePool \S+ limits: |existing nodes: )/;

/**
 * Splits the reason core's explainUnschedulable writes (`NodePool a: ...; exceeds NodePool b
 * limits: ...; existing nodes: ...`) — the one `schedule` prints and the controller's
 * FailedScheduling event carries — into its per-NodePool parts. Parts of no known form are
 * kept whole in `other`, so nothing the solver said is lost.
 */
export function splitUnschedulableReason(reason: string): SplitReason {
  const nodePools: Array<{ nodePool: string; reason: string }> = [];
  const other: string[] = [];
  let existingNodes: string | undefined;
  for (const part of reason.split(PartBoundary)) {
    const pool = PerPool.exec(part);
    if (pool !== null) {
      nodePools.push({ nodePool: pool[1]!, reason: pool[2]! });
      continue;
    }
    const limits = PoolLimits.exec(part);
    if (limits !== null) {
      nodePools.push({ nodePool: limits[1]!, reason: `exceeds its limits: ${limits[2]!}` });
      continue;
    }
    const existing = Existing.exec(part);
    if (existing !== null) existingNodes = existing[1]!;
    else if (part !== '') other.push(part);
  }
  return { nodePools, ...(existingNodes === undefined ? {} : { existingNodes }), other };
}
