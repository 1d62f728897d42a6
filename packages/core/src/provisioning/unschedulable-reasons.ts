/** How many pods a pass could not schedule for one reason. */
export interface ReasonCount {
  readonly reason: string;
  readonly pods: number;
}

/**
 * The most common reasons among a pass's unschedulable pods, most pods first (ties by reason),
 * at most `limit` of them: a pass over thousands of pods says in one log line why they wait,
 * where a line per pod would be thousands.
 */
export function unschedulableReasons(
  unschedulable: readonly { readonly reason: string }[],
  limit = 5,
): ReasonCount[] {
  const counts = new Map<string, number>();
  for (const { reason } of unschedulable) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts]
    .map(([reason, pods]) => ({ reason, pods }))
    .sort((a, b) => b.pods - a.pods || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0))
    .slice(0, limit);
}
