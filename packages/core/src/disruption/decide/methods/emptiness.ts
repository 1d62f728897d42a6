import type { Steps } from '../../../clock/slices.js';
import type { Candidate } from '../candidates/evaluate.js';
import {
  candidatesPrice,
  compareNames,
  type DisruptionMethod,
  type MethodContext,
  type MethodOutcome,
} from './method.js';

/**
 * Emptiness (reason Empty): deletes every consolidatable node with no reschedulable pods
 * (DaemonSet and static pods do not count), cheapest to disrupt first, as far as each NodePool's
 * budget allows, in one command. Runs for both consolidation policies.
 */
export const emptiness: DisruptionMethod = {
  name: 'emptiness',
  reason: 'Empty',
  disruptionClass: 'graceful',
  shouldDisrupt: (c) => c.eligibility.Empty === true,
  *computeCommands(candidates: readonly Candidate[], { budgets, due }: MethodContext): Steps<MethodOutcome> {
    const ordered = [...candidates].sort((a, b) => a.disruptionCost - b.disruptionCost || compareNames(a, b));
    const chosen: Candidate[] = [];
    const budgetSkipped: string[] = [];
    for (const c of ordered) {
      if (due?.() === true) yield;
      if (c.node.reschedulable.length > 0) continue;
      if (budgets.take(c.node.nodePool)) chosen.push(c);
      else budgetSkipped.push(c.name);
    }
    const commands =
      chosen.length === 0
        ? []
        : [
            {
              method: 'emptiness' as const,
              reason: 'Empty' as const,
              candidates: chosen.map((c) => c.name),
              replacements: [],
              savingsPerHour: candidatesPrice(chosen),
              moves: [],
            },
          ];
    return { commands, budgetSkipped, notes: new Map() };
  },
};
