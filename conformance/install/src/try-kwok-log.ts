/** The steps deploy/kind/try-kwok.sh runs without `--delete`, in order. */
export const TRY_KWOK_STEPS = ['build', 'cluster', 'kwok', 'image', 'charts', 'workload', 'scale-down'];

/** One finished step of a try-kwok.sh run and how long it took. */
export interface TryKwokStep {
  readonly step: string;
  readonly seconds: number;
}

/**
 * The finished steps in a try-kwok.sh run's stderr, in order, from its
 * `[try-kwok] step NAME done in Ns (Ts)` lines. A step that failed has no such line, so a
 * caller comparing with TRY_KWOK_STEPS sees where the run stopped.
 */
export function parseTryKwokSteps(stderr: string): TryKwokStep[] {
  const steps: TryKwokStep[] = [];
  for (const match of stderr.matchAll(/^\[try-kwok\] step (\S+) done in (\d+)s \(\d+s\)$/gm)) {
    steps.push({ step: match[1]!, seconds: Number(match[2]) });
  }
  return steps;
}
