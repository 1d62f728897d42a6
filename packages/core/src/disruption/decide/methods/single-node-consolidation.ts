import type { Candidate } from '../candidates/evaluate.js';
import { computeConsolidation, consolidationOrder } from './consolidation.js';
import type { DisruptionMethod, MethodContext, MethodOutcome } from './method.js';

/**
 * Single-node consolidation (reason Underutilized): each consolidatable non-empty node within
 * budget, best value first, alone: deleted if its pods fit elsewhere, else replaced by one
 * cheaper node. The first node that works is the command; why the ones before it did not work
 * is kept as notes.
 */
export const singleNodeConsolidation: DisruptionMethod = {
  name: 'single-node-consolidation',
  reason: 'Underutilized',
  disruptionClass: 'graceful',
  shouldDisrupt: (c) => c.eligibility.Underutilized === true,
  computeCommands(candidates: readonly Candidate[], context: MethodContext): MethodOutcome {
    const budgetSkipped: string[] = [];
    const notes = new Map<string, string>();
    for (const c of consolidationOrder(candidates)) {
      if (c.node.reschedulable.length === 0) continue;
      if (context.budgets.left(c.node.nodePool) <= 0) {
        budgetSkipped.push(c.name);
        continue;
      }
      const attempt = computeConsolidation('single-node-consolidation', [c], context);
      if ('why' in attempt) {
        notes.set(c.name, `not consolidated: ${attempt.why}`);
        continue;
      }
      context.budgets.take(c.node.nodePool);
      return { commands: [attempt.command], budgetSkipped, notes };
    }
    return { commands: [], budgetSkipped, notes };
  },
};
