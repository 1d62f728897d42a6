import type { Due, Steps } from './slices.js';

/**
 * A stable sort as stoppable work (see `Steps`): a bottom-up merge sort that may stop between
 * two merges. Any two stable sorts agree for a consistent comparator, so the order is the one
 * `[...items].sort(compare)` gives; for sorts too long for one slice (20,000 pods: tens of ms).
 */
export function* sortSteps<T>(items: readonly T[], compare: (a: T, b: T) => number, due: Due): Steps<T[]> {
  const n = items.length;
  let from = items.slice();
  let to = new Array<T>(n);
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      if (due()) yield;
      merge(from, to, lo, Math.min(lo + width, n), Math.min(lo + 2 * width, n), compare);
    }
    [from, to] = [to, from];
  }
  return from;
}

/** Merges the sorted runs from[lo, mid) and from[mid, hi) into to[lo, hi), left first on ties. */
function merge<T>(from: T[], to: T[], lo: number, mid: number, hi: number, compare: (a: T, b: T) => number) {
  let i = lo;
  let j = mid;
  for (let k = lo; k < hi; k++) {
    if (i < mid && (j >= hi || compare(from[i]!, from[j]!) <= 0)) to[k] = from[i++]!;
    else to[k] = from[j++]!;
  }
}
