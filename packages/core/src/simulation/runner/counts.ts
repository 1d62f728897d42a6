/** A count map as a record sorted by key, zeros left out. */
export function sortedRecord(m: ReadonlyMap<string, number>): Record<string, number> {
  return Object.fromEntries(
    [...m.entries()].filter(([, v]) => v > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/**
 * How much each count grew from `before` to `after` (pure): a record sorted by key, keys that
 * did not grow left out. Counters only grow, so a key missing from `after` is not a decrease.
 */
export function countsSince(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
): Record<string, number> {
  const grown = new Map<string, number>();
  for (const [key, value] of after) grown.set(key, value - (before.get(key) ?? 0));
  return sortedRecord(grown);
}

/**
 * Turns a cumulative count (a Prometheus counter, an autoscaler's tally) into increments: each
 * call answers what grew since the previous call (the first, since zero). The series of a run
 * records disruptions per sample this way, so its increments add up to the summary's totals.
 */
export function countDeltas(
  read: () => ReadonlyMap<string, number> | Promise<ReadonlyMap<string, number>>,
): () => Promise<Record<string, number>> {
  let last: ReadonlyMap<string, number> = new Map();
  return async () => {
    const now = new Map(await read());
    const grown = countsSince(last, now);
    last = now;
    return grown;
  };
}

/** The key-wise sum of count records (pure), sorted by key, zeros left out. */
export function addCounts(records: Iterable<Readonly<Record<string, number>>>): Record<string, number> {
  const total = new Map<string, number>();
  for (const r of records) for (const [k, v] of Object.entries(r)) total.set(k, (total.get(k) ?? 0) + v);
  return sortedRecord(total);
}
