import { channel } from 'node:diagnostics_channel';
import { type Due, finishInSlices, finishNow, type Slices, type Steps } from '../../clock/slices.js';
import { sortSteps } from '../../clock/sort-steps.js';
import { comparePodsForScheduling } from '../pod/identity.js';
import { PodQueue } from './queue.js';
import { repack } from './repack.js';
import { resultSteps } from './result.js';
import { Scheduler } from './scheduler.js';
import type { SolveDeadline, SolverInput, SolverResult } from './types.js';

/**
 * One provisioning decision, with Karpenter's semantics: pending pods, largest first, go onto
 * existing capacity, then NodeClaims made earlier in this solve (fewest pods first), then a new
 * NodeClaim from the first NodePool (by weight) that can take them; a pod that fits nowhere gives
 * up one preference and waits for its next turn. Then, unless `options.repack` is false, the
 * claims holding only unconstrained pods are re-packed when that is cheaper. Pure and
 * deterministic: the same input gives the same result, and the input is not changed.
 *
 * With a `deadline`, the time is checked before each pod: once the budget is spent the solve
 * stops placing pods and returns what it has — claims and placements made so far (not
 * re-packed, which would take more time) — with every pod it did not get to unschedulable
 * for `DeadlineExceededReason`. Deterministic given the deadline's readings.
 */
export function solve(input: SolverInput, deadline?: SolveDeadline): SolverResult {
  return finishNow(solveSteps(input, deadline));
}

/**
 * `solve`, giving the event loop a turn whenever `slices.due()` says a slice is used up (asked
 * before each pod, while preparing and while placing), so Lease renewals, probes and scrapes are
 * answered during a long solve. The solve stops only between two pods and reads nothing from
 * outside the input meanwhile, so the result is the one `solve` returns for the same input and
 * deadline readings.
 */
export function solveInSlices(
  input: SolverInput,
  slices: Slices,
  deadline?: SolveDeadline,
): Promise<SolverResult> {
  return finishInSlices(
    solveSteps(input, deadline, () => slices.due()),
    slices,
  );
}

/**
 * The solve as stoppable work (see `Steps`): `solve` and `solveInSlices` run it, and so do
 * callers that are themselves stoppable (the disruption pass's simulations), passing their `due`.
 */
export function* solveSteps(input: SolverInput, deadline?: SolveDeadline, due?: Due): Steps<SolverResult> {
  if (SolveChannel.hasSubscribers) SolveChannel.publish({ pods: input.pods.length });
  const s = yield* Scheduler.prepare(input, due);
  const placeable = s.entries.filter((e) => e.cls !== undefined);
  // Tens of ms for 20,000 pods: stoppable when the caller stops, the built-in sort otherwise
  // (both stable, so the same order).
  const queued =
    due === undefined
      ? placeable.sort(comparePodsForScheduling)
      : yield* sortSteps(placeable, comparePodsForScheduling, due);
  const queue = new PodQueue(queued.map((e) => e.index));
  const expired = expiry(deadline);
  for (;;) {
    const outcome = s.run(queue, expired, due);
    if (outcome === 'paused') {
      yield;
      continue;
    }
    if (outcome === 'done' && s.options.repack) {
      // The re-packing pass does not stop inside (a few ms for 20,000 pods): a slice ends before.
      if (due?.() === true) yield;
      repack(s);
    }
    return yield* resultSteps(s, due);
  }
}

/**
 * Every solve is published here (`{ pods }`, the pods to place) when someone subscribes, so tools
 * such as `bench:simulate` can count solver calls without the solver keeping any state.
 */
export const SolveChannel = channel('nodewright:scheduling:solve');

function expiry(deadline: SolveDeadline | undefined): (() => boolean) | undefined {
  if (deadline === undefined) return undefined;
  const start = deadline.elapsedMs();
  return () => deadline.elapsedMs() - start >= deadline.budgetMs;
}
