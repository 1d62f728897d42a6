/**
 * The V8 heap flags `nodewright controller` runs under, the counterpart of the GOMEMLIMIT
 * Karpenter's image sets.
 *
 * `--max-semi-space-size=8` caps each of the young generation's semi-spaces at 8 MB. On a
 * machine with many GB of memory V8 lets them grow to 64 MB, and a controller parsing watch
 * events at a high rate keeps them there: 128 MB of mostly empty young generation, half of the
 * heap bench/e2e.ts measured (the old generation and the live objects were a third of it). The
 * price is more frequent scavenges, each a millisecond or two; the limit on the old generation
 * is left at V8's default, so a larger cluster never runs out of heap.
 */
export const ControllerNodeFlags: readonly string[] = ['--max-semi-space-size=8'];

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
