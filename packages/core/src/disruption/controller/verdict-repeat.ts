/** The last verdict published for one object, and when. */
export interface PublishedVerdict {
  readonly message: string;
  readonly at: number;
}

/**
 * Whether a node's verdict `message` at `now` deserves an event: it differs from the last one
 * published, and at least `minIntervalMs` has passed since that one (Karpenter dedupes
 * Unconsolidatable per node for 15 minutes). Pure.
 */
export function verdictDue(
  last: PublishedVerdict | undefined,
  message: string,
  now: number,
  minIntervalMs: number,
): boolean {
  if (last === undefined) return true;
  return last.message !== message && now - last.at >= minIntervalMs;
}
