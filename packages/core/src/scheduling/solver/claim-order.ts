/**
 * The order pods try the NodeClaims of this solve: fewest pods first (Karpenter), and among
 * equals the one created first, so the order is deterministic. Claims are bucketed by pod count;
 * a claim moves one bucket up each time it takes a pod.
 */
export class ClaimOrder {
  readonly #buckets = new Map<number, number[]>();
  /** Pod counts with a non-empty bucket, ascending. */
  readonly #counts: number[] = [];

  /** Adds a claim with its current pod count. */
  add(id: number, count: number): void {
    this.#insert(id, count);
  }

  /** A claim went from `count` pods to `count + 1`. */
  increment(id: number, count: number): void {
    const bucket = this.#buckets.get(count)!;
    const i = lowerBound(bucket, id);
    bucket.splice(i, 1);
    if (bucket.length === 0) {
      this.#buckets.delete(count);
      this.#counts.splice(lowerBound(this.#counts, count), 1);
    }
    this.#insert(id, count + 1);
  }

  /** Pod counts in try order; pair with {@link bucket}. Do not change the order while iterating. */
  counts(): readonly number[] {
    return this.#counts;
  }

  bucket(count: number): readonly number[] {
    return this.#buckets.get(count) ?? [];
  }

  #insert(id: number, count: number): void {
    let bucket = this.#buckets.get(count);
    if (bucket === undefined) {
      bucket = [];
      this.#buckets.set(count, bucket);
      this.#counts.splice(lowerBound(this.#counts, count), 0, count);
    }
    const i = lowerBound(bucket, id);
    if (i === bucket.length) bucket.push(id);
    else bucket.splice(i, 0, id);
  }
}

/** First index whose value is >= x in an ascending array. */
function lowerBound(a: readonly number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
