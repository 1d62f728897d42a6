import type { Steps } from '../../../clock/slices.js';
import type { ScoredMove } from '../balanced/balanced-score.js';
import type { Candidate } from '../candidates/evaluate.js';
import { attemptMoves, consolidationOrder, consolidationSteps } from './consolidation.js';
import type { DisruptionMethod, MethodContext, MethodOutcome } from './method.js';
import { cutShort, SearchBudget } from './search-budget.js';

/**
 * Single-node consolidation (reason Underutilized): each consolidatable non-empty node within
 * budget, best value first, alone: deleted if its pods fit elsewhere, else replaced by one
 * cheaper node. The first node that works is the command; why the ones before it did not work
 * is kept as notes. As upstream, trying has a time budget (three minutes by default): when it
 * runs out the pass has no command from this method, and the nodes not tried are named.
 */
export const singleNodeConsolidation: DisruptionMethod = {
  name: 'single-node-consolidation',
  reason: 'Underutilized',
  disruptionClass: 'graceful',
  shouldDisrupt: (c) => c.eligibility.Underutilized === true,
  *computeCommands(candidates: readonly Candidate[], context: MethodContext): Steps<MethodOutcome> {
    const budget = new SearchBudget(
      context.options.searchClock,
      context.options.singleNodeConsolidationTimeoutMs,
    );
    const budgetSkipped: string[] = [];
    const notes = new Map<string, string>();
    const unconsolidatable = new Map<string, string>();
    const scored: ScoredMove[] = [];
    const ordered = consolidationOrder(candidates);
    let attempts = 0;
    for (const [i, c] of ordered.entries()) {
      if (c.node.reschedulable.length === 0) continue;
      if (context.budgets.left(c.node.nodePool) <= 0) {
        budgetSkipped.push(c.name);
        continue;
      }
      const { expired, elapsedMs } = budget.check();
      if (expired) {
        const rest = ordered.slice(i).filter((r) => r.node.reschedulable.length > 0);
        const skipped: string[] = [];
        for (const r of rest) {
          if (context.budgets.left(r.node.nodePool) <= 0) budgetSkipped.push(r.name);
          else skipped.push(r.name);
        }
        const stopped = cutShort(
          'single-node-consolidation',
          budget,
          elapsedMs,
          attempts,
          skipped,
          undefined,
        );
        const why = `not tried: single-node consolidation ran out of its time budget (${stopped.budgetMs / 1000} s) before this node`;
        for (const name of skipped) notes.set(name, why);
        return {
          commands: [],
          budgetSkipped,
          notes,
          unconsolidatable,
          cutShort: stopped,
          scoredMoves: scored,
        };
      }
      attempts++;
      const attempt = yield* consolidationSteps('single-node-consolidation', [c], context);
      scored.push(...attemptMoves([c], attempt));
      if ('why' in attempt) {
        notes.set(c.name, `not consolidated: ${attempt.why}`);
        unconsolidatable.set(c.name, attempt.why);
        continue;
      }
      context.budgets.take(c.node.nodePool);
      return { commands: [attempt.command], budgetSkipped, notes, unconsolidatable, scoredMoves: scored };
    }
    return { commands: [], budgetSkipped, notes, unconsolidatable, scoredMoves: scored };
  },
};
