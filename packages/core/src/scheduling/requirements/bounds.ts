import { INT64_MAX, INT64_MIN } from './node-selector.js';

/**
 * Inclusive integer bounds on a label value (Gt n is stored as gte n+1, Lt n as lte n-1). The
 * number mirrors let the common case compare without a bigint: a value of at most 15 digits is an
 * exact double, and comparing it with the rounded mirror of a bound beyond 2^53 gives the same
 * answer as comparing exactly.
 */
export interface Bounds {
  readonly gte: bigint | undefined;
  readonly lte: bigint | undefined;
  readonly gteN: number;
  readonly lteN: number;
}

export function makeBounds(gte: bigint | undefined, lte: bigint | undefined): Bounds {
  return {
    gte,
    lte,
    gteN: gte === undefined ? Number.NEGATIVE_INFINITY : Number(gte),
    lteN: lte === undefined ? Number.POSITIVE_INFINITY : Number(lte),
  };
}

/** True when no int64 lies within the bounds. */
export function boundsEmpty(gte: bigint | undefined, lte: bigint | undefined): boolean {
  if (gte !== undefined && gte > INT64_MAX) return true;
  if (lte !== undefined && lte < INT64_MIN) return true;
  return gte !== undefined && lte !== undefined && gte > lte;
}

/**
 * Whether a label value is an int64 (as Go's strconv.ParseInt reads it) within the bounds.
 * Allocation-free for values of up to 15 digits.
 */
export function withinBounds(value: string, b: Bounds): boolean {
  const len = value.length;
  let i = 0;
  let negative = false;
  const first = value.charCodeAt(0);
  if (first === 45) {
    negative = true;
    i = 1;
  } else if (first === 43) {
    i = 1;
  }
  if (i >= len) return false;
  if (len - i <= 15) {
    let n = 0;
    for (; i < len; i++) {
      const d = value.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return false;
      n = n * 10 + d;
    }
    if (negative) n = -n;
    return n >= b.gteN && n <= b.lteN;
  }
  for (let j = i; j < len; j++) {
    const d = value.charCodeAt(j) - 48;
    if (d < 0 || d > 9) return false;
  }
  const n = BigInt(value);
  if (n < INT64_MIN || n > INT64_MAX) return false;
  return (b.gte === undefined || n >= b.gte) && (b.lte === undefined || n <= b.lte);
}
