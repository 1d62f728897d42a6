/** What the status-condition metrics read of a condition. */
export interface ObservedCondition {
  readonly type: string;
  readonly status: string;
  readonly reason: string;
  /** ms since the epoch; NaN when absent or unparsable. */
  readonly lastTransitionMs: number;
}

/** One condition whose status differs from what was observed of it last time. */
export interface ConditionTransition {
  readonly type: string;
  /** The status and reason it has now. */
  readonly status: string;
  readonly reason: string;
  /**
   * The status it had before, and how long it held it (seconds between the two transition
   * times); undefined when the condition was not observed before or a time is missing.
   */
  readonly from?: { readonly status: string; readonly seconds?: number };
}

/** The conditions in an object's `status.conditions`, as the metrics read them. Pure. */
export function observedConditions(object: unknown): ObservedCondition[] {
  const conditions = (object as { status?: { conditions?: unknown } }).status?.conditions;
  if (!Array.isArray(conditions)) return [];
  const out: ObservedCondition[] = [];
  for (const c of conditions as {
    type?: unknown;
    status?: unknown;
    reason?: unknown;
    lastTransitionTime?: unknown;
  }[]) {
    if (typeof c?.type !== 'string' || typeof c.status !== 'string') continue;
    out.push({
      type: c.type,
      status: c.status,
      reason: typeof c.reason === 'string' ? c.reason : '',
      lastTransitionMs:
        typeof c.lastTransitionTime === 'string' ? Date.parse(c.lastTransitionTime) : Number.NaN,
    });
  }
  return out;
}

/**
 * The transitions between two observations of one object's conditions, as operatorpkg counts
 * them: a condition transitions when it was not observed before or its status changed (a reason
 * change alone is not a transition). Best effort, like upstream's: two changes between
 * observations count as one. Pure.
 */
export function conditionTransitions(
  before: readonly ObservedCondition[] | undefined,
  now: readonly ObservedCondition[],
): ConditionTransition[] {
  const previous = new Map((before ?? []).map((c) => [c.type, c]));
  const out: ConditionTransition[] = [];
  for (const c of now) {
    const was = previous.get(c.type);
    if (was?.status === c.status) continue;
    if (was === undefined) {
      out.push({ type: c.type, status: c.status, reason: c.reason });
      continue;
    }
    const seconds = (c.lastTransitionMs - was.lastTransitionMs) / 1000;
    out.push({
      type: c.type,
      status: c.status,
      reason: c.reason,
      from: Number.isFinite(seconds)
        ? { status: was.status, seconds: Math.max(0, seconds) }
        : { status: was.status },
    });
  }
  return out;
}
