/**
 * The V8 heap flags `nodewright controller` runs under, the counterpart of the GOGC and
 * GOMEMLIMIT a Go controller such as Karpenter runs with. Measured with bench/e2e.ts (1,000
 * pods), whose live heap is 35-60 MB:
 *
 * - `--max-semi-space-size=8` caps each of the young generation's two semi-spaces at 8 MB. On a
 *   machine with many GB of memory V8 lets them grow to 64 MB, and a controller parsing watch
 *   events at a high rate keeps them there: 128 MB of young generation, half the heap. The
 *   price is more frequent scavenges, each a millisecond or two. (4 MB measured no better; 32 MB
 *   put the p95 RSS at 1,000 pods at 283 MB, for no better event loop at 20,000 pods.)
 * - `--heap-growing-percent=100` lets the old generation grow to twice what the last full
 *   collection left before the next one, as Go's default GOGC=100 does. V8 otherwise picks up
 *   to four times: after start-up (40 MB live) it let the old generation reach 195 MB of mostly
 *   replaced watch objects before collecting, and pages freed then stay resident. 50 (one and a
 *   half times) was the default before: at 1,000 pods it kept the p95 RSS 30 MB lower (204 against
 *   234 MB), but at 20,000 pending pods on 2,000 nodes (bench/operator-load.ts, 1.2 GB RSS) the
 *   full collections came twice as often, and their pauses of 200 ms to 1 s put the event loop's
 *   p99 delay at 242 ms, against 156 ms at 100, for a fifth more CPU and the same peak RSS.
 *
 * Neither caps the heap: a larger cluster's controller grows as its live objects do and never
 * runs out of heap because of them.
 */
export const ControllerNodeFlags: readonly string[] = [
  '--max-semi-space-size=8',
  '--heap-growing-percent=100',
];

/** The part of a node flag before `=`, with `_` spelt `-` as node accepts both. */
function flagName(flag: string): string {
  return flag.split('=')[0]!.replaceAll('_', '-');
}

/**
 * The flags of `wanted` that neither node's own arguments (`process.execArgv`) nor
 * `NODE_OPTIONS` set, so a flag the user gives (with any value) always wins over the default.
 */
export function missingNodeFlags(
  wanted: readonly string[],
  execArgv: readonly string[],
  nodeOptions: string | undefined,
): string[] {
  const given = new Set(
    [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].filter((a) => a.startsWith('--')).map(flagName),
  );
  return wanted.filter((flag) => !given.has(flagName(flag)));
}
