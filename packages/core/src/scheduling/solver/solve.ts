import { comparePodsForScheduling } from '../pod/identity.js';
import { PodQueue } from './queue.js';
import { repack } from './repack.js';
import { buildResult } from './result.js';
import { Scheduler } from './scheduler.js';
import type { SolverInput, SolverResult } from './types.js';

/**
 * One provisioning decision, with Karpenter's semantics: pending pods, largest first, go onto
 * existing capacity, then NodeClaims made earlier in this solve (fewest pods first), then a new
 * NodeClaim from the first NodePool (by weight) that can take them; a pod that fits nowhere gives
 * up one preference and waits for its next turn. Then, unless `options.repack` is false, the
 * claims holding only unconstrained pods are re-packed when that is cheaper. Pure and
 * deterministic: the same input gives the same result, and the input is not changed.
 */
export function solve(input: SolverInput): SolverResult {
  const s = new Scheduler(input);
  const queued = s.entries.filter((e) => e.cls !== undefined).sort(comparePodsForScheduling);
  s.run(new PodQueue(queued.map((e) => e.index)));
  if (s.options.repack) repack(s);
  return buildResult(s);
}
