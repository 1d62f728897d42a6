import type { Steps } from '../../../clock/slices.js';
import type { Candidate } from '../candidates/evaluate.js';
import { describeFailures, simulationSteps } from '../simulation/simulate-rescheduling.js';
import {
  candidatesPrice,
  compareNames,
  type DisruptionCommand,
  type DisruptionMethod,
  type MethodContext,
  type MethodOutcome,
  roundPrice,
} from './method.js';

/** Drifted longest first; drift found just now (no condition time) after, by name. */
function byDriftAge(a: Candidate, b: Candidate): number {
  const x = a.drift?.since ?? Number.POSITIVE_INFINITY;
  const y = b.drift?.since ?? Number.POSITIVE_INFINITY;
  return x !== y ? (x < y ? -1 : 1) : compareNames(a, b);
}

/**
 * Drift (reason Drifted): replaces nodes that no longer match their NodePool. Empty drifted nodes
 * go together in one delete command, as far as budgets allow; otherwise the longest-drifted
 * node within budget whose pods all reschedule is replaced by whatever new NodeClaims that takes
 * (any number; drift is not about saving money).
 */
export const drift: DisruptionMethod = {
  name: 'drift',
  reason: 'Drifted',
  disruptionClass: 'eventual',
  shouldDisrupt: (c) => c.eligibility.Drifted === true,
  *computeCommands(
    candidates: readonly Candidate[],
    { snapshot, options, budgets, due }: MethodContext,
  ): Steps<MethodOutcome> {
    const ordered = [...candidates].sort(byDriftAge);
    const empty: Candidate[] = [];
    const budgetSkipped: string[] = [];
    for (const c of ordered) {
      if (c.node.reschedulable.length > 0) continue;
      if (budgets.take(c.node.nodePool)) empty.push(c);
      else budgetSkipped.push(c.name);
    }
    if (empty.length > 0) {
      const command: DisruptionCommand = {
        method: 'drift',
        reason: 'Drifted',
        candidates: empty.map((c) => c.name),
        replacements: [],
        savingsPerHour: candidatesPrice(empty),
        moves: [],
      };
      return { commands: [command], budgetSkipped, notes: new Map() };
    }
    const notes = new Map<string, string>();
    for (const c of ordered) {
      if (c.node.reschedulable.length === 0) continue;
      if (budgets.left(c.node.nodePool) <= 0) {
        budgetSkipped.push(c.name);
        continue;
      }
      const sim = yield* simulationSteps(snapshot, new Set([c.name]), options.solverOptions, due);
      if (sim.failures.length > 0) {
        notes.set(
          c.name,
          `drifted, but its pods would not all reschedule: ${describeFailures(sim.failures)}`,
        );
        continue;
      }
      budgets.take(c.node.nodePool);
      const command: DisruptionCommand = {
        method: 'drift',
        reason: 'Drifted',
        candidates: [c.name],
        replacements: sim.newClaims,
        savingsPerHour: roundPrice(candidatesPrice([c]) - sim.newClaims.reduce((s, n) => s + n.price, 0)),
        moves: sim.moves,
      };
      return { commands: [command], budgetSkipped, notes };
    }
    return { commands: [], budgetSkipped, notes };
  },
};
