/** A failure EC2 puts in CreateFleet's errorSet for one override. */
export interface FleetFailure {
  readonly code: string;
  readonly message: string;
}

/** One launch template config x override, with what the mock knows about it. */
export interface FleetCandidate {
  /** Position in the request (config index, override index), for stable ordering. */
  readonly order: number;
  readonly instanceType: string;
  readonly zone: string;
  readonly subnetId: string;
  readonly priority: number | undefined;
  /** Hourly price for the capacity type; undefined when EC2 would not sell it. */
  readonly price: number | undefined;
  /** Why it cannot launch at all (unsupported in zone, max price too low, ...). */
  readonly failure?: FleetFailure;
  /** Shared limits (pool capacity, subnet addresses) each launch consumes one of. */
  readonly limits: readonly { readonly key: string; readonly failure: FleetFailure }[];
}

export type AllocationStrategy =
  | 'lowest-price'
  | 'prioritized'
  | 'price-capacity-optimized'
  | 'capacity-optimized'
  | 'capacity-optimized-prioritized'
  | 'diversified';

/** What one CreateFleet launches and the errors it reports. */
export interface FleetPlan {
  readonly launches: readonly { readonly candidate: FleetCandidate; readonly count: number }[];
  readonly errors: readonly { readonly candidate: FleetCandidate; readonly failure: FleetFailure }[];
}

/**
 * Ranks candidates the way the strategy does — price first then priority, or priority first for
 * the prioritized strategies — and fills `count` from the best pools with capacity left.
 * `remaining` gives each limit's capacity (absent = unlimited). Errors are the failed pools that
 * ranked ahead of the last one used (EC2 tried them) or, when the fleet fell short, all of them.
 */
export function planFleet(
  candidates: readonly FleetCandidate[],
  strategy: AllocationStrategy,
  count: number,
  remaining: ReadonlyMap<string, number>,
): FleetPlan {
  const left = new Map(remaining);
  const ranked = [...candidates].sort(compareFor(strategy));
  const launches: { candidate: FleetCandidate; count: number }[] = [];
  const failures: { candidate: FleetCandidate; failure: FleetFailure; rank: number }[] = [];
  let needed = count;
  let lastUsedRank = -1;
  ranked.forEach((candidate, rank) => {
    if (candidate.failure) {
      failures.push({ candidate, failure: candidate.failure, rank });
      return;
    }
    if (needed === 0) return;
    const capacity = Math.min(
      needed,
      ...candidate.limits.map((l) => left.get(l.key) ?? Number.POSITIVE_INFINITY),
    );
    if (capacity > 0) {
      for (const l of candidate.limits) {
        const have = left.get(l.key);
        if (have !== undefined) left.set(l.key, have - capacity);
      }
      launches.push({ candidate, count: capacity });
      needed -= capacity;
      lastUsedRank = rank;
    }
    if (needed > 0) {
      const binding = candidate.limits.find((l) => (left.get(l.key) ?? 1) <= 0);
      if (binding) failures.push({ candidate, failure: binding.failure, rank });
    }
  });
  const errors = failures.filter((f) => needed > 0 || f.rank < lastUsedRank);
  return { launches, errors: errors.map(({ candidate, failure }) => ({ candidate, failure })) };
}

function compareFor(strategy: AllocationStrategy): (a: FleetCandidate, b: FleetCandidate) => number {
  const byPrice = (a: FleetCandidate, b: FleetCandidate) =>
    (a.price ?? Number.POSITIVE_INFINITY) - (b.price ?? Number.POSITIVE_INFINITY);
  const byPriority = (a: FleetCandidate, b: FleetCandidate) =>
    (a.priority ?? Number.POSITIVE_INFINITY) - (b.priority ?? Number.POSITIVE_INFINITY);
  const prioritized = strategy === 'prioritized' || strategy === 'capacity-optimized-prioritized';
  const [first, second] = prioritized ? [byPriority, byPrice] : [byPrice, byPriority];
  return (a, b) => first(a, b) || second(a, b) || a.order - b.order;
}
