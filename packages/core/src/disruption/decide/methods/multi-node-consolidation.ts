import type { Steps } from '../../../clock/slices.js';
import type { ScoredMove } from '../balanced/balanced-score.js';
import type { Candidate } from '../candidates/evaluate.js';
import { attemptMoves, consolidationOrder, consolidationSteps } from './consolidation.js';
import {
  candidatesPrice,
  type DisruptionCommand,
  type DisruptionMethod,
  type MethodContext,
  type MethodOutcome,
  roundPrice,
} from './method.js';
import { cheaperTypes, narrowClaim } from './replacement.js';
import { cutShort, SearchBudget } from './search-budget.js';

/**
 * Replacing several nodes with one node of a type some of them already run only pays when it
 * is cheaper than the cheapest of those; otherwise keeping that node and deleting the others
 * disrupts fewer pods (Karpenter's filterOutSameInstanceType). Undefined when no type is left.
 */
export function withoutSameTypes(
  command: DisruptionCommand,
  candidates: readonly Candidate[],
): DisruptionCommand | undefined {
  const replacement = command.replacements[0];
  if (replacement === undefined) return command;
  const cheapestByType = new Map<string, number>();
  for (const c of candidates) {
    if (!c.price.known) continue;
    const name = c.price.instanceType.name;
    cheapestByType.set(name, Math.min(cheapestByType.get(name) ?? Number.POSITIVE_INFINITY, c.price.price));
  }
  let maxPrice = Number.POSITIVE_INFINITY;
  for (const t of replacement.instanceTypes) {
    const p = cheapestByType.get(t.name);
    if (p !== undefined && p < maxPrice) maxPrice = p;
  }
  if (!Number.isFinite(maxPrice)) return command;
  const kept = cheaperTypes(replacement.instanceTypes, replacement.requirements, maxPrice);
  if (kept.length === 0) return undefined;
  const narrowed = narrowClaim(replacement, kept, replacement.requirements);
  const price = candidatesPrice(candidates);
  return { ...command, replacements: [narrowed], savingsPerHour: roundPrice(price - narrowed.price) };
}

/**
 * Multi-node consolidation (reason Underutilized): the consolidatable non-empty nodes, best
 * value first, within budget (each taking one disruption of its NodePool's allowance, so the
 * set never exceeds it), at most 100; a binary search over prefixes of two or more finds the
 * largest set that can be deleted or replaced by one cheaper node. As upstream, the search has
 * a time budget (one minute by default): when it runs out, the largest set found so far is the
 * command, and the outcome says which candidates were left unsettled.
 */
export const multiNodeConsolidation: DisruptionMethod = {
  name: 'multi-node-consolidation',
  reason: 'Underutilized',
  disruptionClass: 'graceful',
  shouldDisrupt: (c) => c.eligibility.Underutilized === true,
  *computeCommands(candidates: readonly Candidate[], context: MethodContext): Steps<MethodOutcome> {
    const budget = new SearchBudget(
      context.options.searchClock,
      context.options.multiNodeConsolidationTimeoutMs,
    );
    const budgetSkipped: string[] = [];
    const within: Candidate[] = [];
    for (const c of consolidationOrder(candidates)) {
      if (c.node.reschedulable.length === 0) continue;
      if (context.budgets.take(c.node.nodePool)) within.push(c);
      else budgetSkipped.push(c.name);
    }
    const limited = within.slice(0, context.options.maxMultiNodeCandidates);
    if (limited.length < 2) return { commands: [], budgetSkipped, notes: new Map() };
    let low = 1;
    let high = limited.length - 1;
    let best: DisruptionCommand | undefined;
    let bestMoves: ScoredMove[] = [];
    let rejectedMoves: ScoredMove[] = [];
    let attempts = 0;
    while (low <= high) {
      const { expired, elapsedMs } = budget.check();
      if (expired) {
        const skipped = limited.slice(best?.candidates.length ?? 0, high + 1).map((c) => c.name);
        const stopped = cutShort(
          'multi-node-consolidation',
          budget,
          elapsedMs,
          attempts,
          skipped,
          best?.candidates.length,
        );
        return {
          commands: best === undefined ? [] : [best],
          budgetSkipped,
          notes: new Map(),
          cutShort: stopped,
          scoredMoves: best === undefined ? rejectedMoves : bestMoves,
        };
      }
      const mid = Math.floor((low + high) / 2);
      const prefix = limited.slice(0, mid + 1);
      attempts++;
      const attempt = yield* consolidationSteps('multi-node-consolidation', prefix, context);
      const command = 'command' in attempt ? withoutSameTypes(attempt.command, prefix) : undefined;
      if (command !== undefined) {
        best = command;
        bestMoves = attemptMoves(prefix, attempt);
        low = mid + 1;
      } else {
        if (attempt.balanced !== undefined) rejectedMoves = attemptMoves(prefix, attempt);
        high = mid - 1;
      }
    }
    // As Karpenter: the moves of the command chosen, or else those of the last (smallest) set a
    // Balanced pool turned away, not one per step of the search.
    return {
      commands: best === undefined ? [] : [best],
      budgetSkipped,
      notes: new Map(),
      scoredMoves: best === undefined ? rejectedMoves : bestMoves,
    };
  },
};
