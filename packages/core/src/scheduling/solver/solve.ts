import { channel } from 'node:diagnostics_channel';
import { comparePodsForScheduling } from '../pod/identity.js';
import { PodQueue } from './queue.js';
import { repack } from './repack.js';
import { buildResult } from './result.js';
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
  if (SolveChannel.hasSubscribers) SolveChannel.publish({ pods: input.pods.length });
  const s = new Scheduler(input);
  const queued = s.entries.filter((e) => e.cls !== undefined).sort(comparePodsForScheduling);
  const completed = s.run(new PodQueue(queued.map((e) => e.index)), expiry(deadline));
  if (completed && s.options.repack) repack(s);
  return buildResult(s);
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
