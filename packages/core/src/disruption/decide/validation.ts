import { type Due, finishInSlices, finishNow, type Slices, type Steps } from '../../clock/slices.js';
import { BudgetLedger, disruptionBudgets } from './budgets/budget-mapping.js';
import { type Candidate, evaluationSteps } from './candidates/evaluate.js';
import { DisruptionMethods } from './compute-disruption.js';
import { consolidationSteps } from './methods/consolidation.js';
import type { DisruptionCommand } from './methods/method.js';
import { withoutSameTypes } from './methods/multi-node-consolidation.js';
import { describeFailures, simulationSteps } from './simulation/simulate-rescheduling.js';
import { type DisruptionOptions, type DisruptionSnapshot, resolveDisruptionOptions } from './snapshot.js';

/** Whether a command decided earlier still holds. */
export type CommandValidation = { readonly valid: true } | { readonly valid: false; readonly reason: string };

const invalid = (reason: string): CommandValidation => ({ valid: false, reason });

/**
 * Re-checks a command against a later snapshot, as the controller does after its validation
 * delay (15 s) and before acting: every candidate must still be a candidate for the command's
 * method, the budgets must still allow them all, and the simulation must still agree — a delete
 * must still need no replacement; a replacement must still need exactly one NodeClaim whose
 * instance types include all of the command's (so what is launched is still a good choice).
 */
export function validateCommand(
  command: DisruptionCommand,
  snapshot: DisruptionSnapshot,
  now: number,
  options?: DisruptionOptions,
): CommandValidation {
  return finishNow(validationSteps(command, snapshot, now, options));
}

/**
 * `validateCommand`, giving the event loop a turn whenever `slices.due()` says a slice is used
 * up (between two nodes or two pods of its simulation); the same answer.
 */
export function validateCommandInSlices(
  command: DisruptionCommand,
  snapshot: DisruptionSnapshot,
  now: number,
  slices: Slices,
  options?: DisruptionOptions,
): Promise<CommandValidation> {
  return finishInSlices(
    validationSteps(command, snapshot, now, options, () => slices.due()),
    slices,
  );
}

function* validationSteps(
  command: DisruptionCommand,
  snapshot: DisruptionSnapshot,
  now: number,
  options: DisruptionOptions | undefined,
  due?: Due,
): Steps<CommandValidation> {
  const method = DisruptionMethods.find((m) => m.name === command.method);
  if (method === undefined) return invalid(`unknown method ${command.method}`);
  const resolved = resolveDisruptionOptions(options);
  const evaluations = new Map((yield* evaluationSteps(snapshot, now, due)).map((e) => [e.node.name, e]));
  const candidates: Candidate[] = [];
  for (const name of command.candidates) {
    const e = evaluations.get(name);
    if (e === undefined) return invalid(`node ${name} is no longer in the cluster`);
    if (e.candidate === undefined) return invalid(`node ${name}: ${e.blockedBy}`);
    if (!method.shouldDisrupt(e.candidate))
      return invalid(`node ${name}: ${e.candidate.eligibility[method.reason]}`);
    candidates.push(e.candidate);
  }
  const nodes = [...evaluations.values()].map((e) => e.node);
  const budgets = new BudgetLedger(disruptionBudgets(nodes, snapshot.nodePools, method.reason, now));
  for (const c of candidates) {
    if (!budgets.take(c.node.nodePool))
      return invalid(
        `the disruption budget of NodePool ${c.node.nodePool} no longer allows disrupting ${c.name}`,
      );
  }
  if (command.method === 'emptiness') return { valid: true };
  if (command.method === 'drift') {
    if (candidates.every((c) => c.node.reschedulable.length === 0)) return { valid: true };
    const sim = yield* simulationSteps(snapshot, new Set(command.candidates), resolved.solverOptions, due);
    if (sim.failures.length > 0)
      return invalid(`pods would no longer all reschedule: ${describeFailures(sim.failures)}`);
    return { valid: true };
  }
  const context = { snapshot, options: resolved, budgets, ...(due === undefined ? {} : { due }) };
  const attempt = yield* consolidationSteps(command.method, candidates, context);
  if ('why' in attempt) return invalid(attempt.why);
  const current =
    command.method === 'multi-node-consolidation'
      ? withoutSameTypes(attempt.command, candidates)
      : attempt.command;
  if (current === undefined)
    return invalid('no replacement type is cheaper than the candidates of the same type any more');
  const before = command.replacements[0];
  const after = current.replacements[0];
  if (before === undefined)
    return after === undefined ? { valid: true } : invalid('deleting would now need a replacement');
  if (after === undefined)
    return invalid('the replacement is no longer needed: the nodes can now simply be deleted');
  const offered = new Set(after.instanceTypes.map((t) => t.name));
  const missing = before.instanceTypes.filter((t) => !offered.has(t.name)).map((t) => t.name);
  if (missing.length > 0)
    return invalid(`instance types ${missing.slice(0, 5).join(', ')} are no longer a good replacement`);
  return { valid: true };
}
