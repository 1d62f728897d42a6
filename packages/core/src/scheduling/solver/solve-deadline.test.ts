import { describe, expect, it } from 'vitest';
import { checkSolution } from '../checker/check-solution.js';
import { solve } from './solve.js';
import { pods, solverInput, summarize } from './testing/index.js';
import { DeadlineExceededReason, type SolveDeadline } from './types.js';

/** A deadline whose clock moves `stepMs` every time it is read (the solve reads it before each pod). */
function ticking(budgetMs: number, stepMs: number): SolveDeadline & { readonly reads: () => number } {
  let reads = 0;
  return {
    budgetMs,
    elapsedMs: () => reads++ * stepMs,
    reads: () => reads,
  };
}

describe('solve: deadline', () => {
  const input = solverInput({ pods: pods('p', 5, { cpu: '7', memory: '1Gi' }) });

  it('stops placing pods when the budget is spent and returns what it has', () => {
    // Start reads 0; before p-0 10 ms, p-1 20 ms, p-2 30 ms >= 25: p-2..p-4 are not tried.
    const deadline = ticking(25, 10);
    const r = solve(input, deadline);
    expect(checkSolution(input, r)).toEqual([]);
    expect(summarize(r).claims.map((c) => c.pods)).toEqual([['p-0', 'p-1']]);
    expect(r.unschedulable.map((u) => [u.pod.metadata.name, u.reason])).toEqual([
      ['p-2', DeadlineExceededReason],
      ['p-3', DeadlineExceededReason],
      ['p-4', DeadlineExceededReason],
    ]);
    expect(deadline.reads()).toBe(4);
  });

  it('places nothing with no budget at all, and gives the same result as no deadline with enough', () => {
    const none = solve(input, ticking(0, 1));
    expect(none.newClaims).toEqual([]);
    expect(none.unschedulable.map((u) => u.reason)).toEqual(Array(5).fill(DeadlineExceededReason));
    const roomy = solve(input, ticking(60_000, 1));
    expect(summarize(roomy)).toEqual(summarize(solve(input)));
    expect(roomy.unschedulable).toEqual([]);
  });

  it('keeps the real reason of pods it tried and could not place before the deadline', () => {
    const tooBig = solverInput({ pods: [...pods('huge', 1, { cpu: '500' }), ...pods('p', 2, { cpu: '7' })] });
    // huge is tried first (largest), fails and relaxes nothing; the full cycle ends before time.
    const r = solve(tooBig, ticking(1_000, 1));
    const reasons = new Map(r.unschedulable.map((u) => [u.pod.metadata.name, u.reason]));
    expect(reasons.get('huge-0')).toBeDefined();
    expect(reasons.get('huge-0')).not.toBe(DeadlineExceededReason);
    expect(summarize(r).claims.map((c) => c.pods)).toEqual([['p-0', 'p-1']]);
  });
});
