import { type DisruptionReason, DisruptionReasons } from '../../apis/v1/budget.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import { type Due, finishInSlices, finishNow, type Slices, type Steps } from '../../clock/slices.js';
import { SolverCache } from '../../scheduling/solver/solver-cache.js';
import { poolTotals, type ScoredMove } from './balanced/balanced-score.js';
import { BudgetLedger, disruptionBudgets, type PoolBudget } from './budgets/budget-mapping.js';
import { describeBudgetBlock, describeBudgetTaken } from './budgets/describe-budget.js';
import { type Candidate, evaluationSteps } from './candidates/evaluate.js';
import { nodePrice } from './candidates/node-price.js';
import { drift } from './methods/drift.js';
import { emptiness } from './methods/emptiness.js';
import type {
  DisruptionCommand,
  DisruptionMethod,
  DisruptionMethodName,
  MethodOutcome,
} from './methods/method.js';
import { multiNodeConsolidation } from './methods/multi-node-consolidation.js';
import { NodeRoom } from './methods/node-room.js';
import type { SearchCutShort } from './methods/search-budget.js';
import { singleNodeConsolidation } from './methods/single-node-consolidation.js';
import { type DisruptionOptions, type DisruptionSnapshot, resolveDisruptionOptions } from './snapshot.js';

/** The methods in the order the controller tries them; the first with a command wins the pass. */
export const DisruptionMethods: readonly DisruptionMethod[] = [
  emptiness,
  drift,
  multiNodeConsolidation,
  singleNodeConsolidation,
];

/** Why one managed node may or may not be disrupted now. */
export interface NodeDisruptionStatus {
  readonly node: string;
  readonly nodePool: string;
  /** Some method may take it now (budgets included); true for every node of a command. */
  readonly disruptable: boolean;
  /** Set exactly when not disruptable: the rule that stops it, in words. */
  readonly blockedBy?: string;
  /** The reasons it may be disrupted for now. */
  readonly reasons: readonly DisruptionReason[];
  /** How it drifted, if it did. */
  readonly drifted?: string;
  /** Its price per hour, when known. */
  readonly pricePerHour?: number;
  /** Why a method that tried it in this pass did not take it (e.g. its pods would not fit). */
  readonly note?: string;
  /**
   * Set when consolidation simulated removing it in this pass and did not take it: why
   * (MethodOutcome.unconsolidatable).
   */
  readonly unconsolidatable?: string;
}

/** One disruption pass: at most one method's commands, and every managed node explained. */
export interface DisruptionResult {
  readonly commands: readonly DisruptionCommand[];
  /** Every managed node, by name. */
  readonly nodes: readonly NodeDisruptionStatus[];
  /** The allowance per NodePool and reason at the start of the pass. */
  readonly budgets: readonly PoolBudget[];
  /** Misconfigured budgets (they allow nothing), as `NodePool/name: budgets[i]: ...`. */
  readonly problems: readonly string[];
  /**
   * Per reason, how many candidates its methods would consider this pass (their shouldDisrupt),
   * budgets aside; counted for every method, not only those that ran before the winner.
   */
  readonly eligible: Readonly<Record<DisruptionReason, number>>;
  /** NodePools whose budget allows no disruption for a reason some of their candidates have. */
  readonly blockedBudgets: readonly BudgetBlock[];
  /** Consolidation searches this pass stopped at their time budget, with what they left untried. */
  readonly cutShort: readonly SearchCutShort[];
  /**
   * The methods the pass ran, in order (it stops at the first with a command), each with its
   * seconds when the options gave `elapsedMs`.
   */
  readonly evaluated: readonly MethodEvaluation[];
  /** Consolidation moves the pass's methods scored, for the consolidation-move metrics. */
  readonly scoredMoves: readonly ScoredMove[];
}

/** One method run by a pass (see `DisruptionResult.evaluated`). */
export interface MethodEvaluation {
  readonly method: DisruptionMethodName;
  readonly reason: DisruptionReason;
  readonly seconds?: number;
}

/** A NodePool's budget stopping every disruption for one reason, and why in words. */
export interface BudgetBlock {
  readonly nodePool: string;
  readonly reason: DisruptionReason;
  readonly message: string;
}

/** Per reason, the candidates some method of that reason would consider (each counted once). */
function eligibleCandidates(
  candidates: readonly Candidate[],
  methods: readonly DisruptionMethod[] = DisruptionMethods,
): Record<DisruptionReason, number> {
  const count = (reason: DisruptionReason) =>
    candidates.filter((c) => methods.some((m) => m.reason === reason && m.shouldDisrupt(c))).length;
  return { Empty: count('Empty'), Drifted: count('Drifted'), Underutilized: count('Underutilized') };
}

type Budgets = Readonly<Record<DisruptionReason, ReadonlyMap<string, PoolBudget>>>;

/**
 * The (NodePool, reason) pairs whose budget allows no disruption now while a candidate of that
 * pool qualifies for the reason: the budget, not the nodes, is what stops it. Pools with nothing
 * to disrupt for a reason are left out, so a closed window over an idle pool is not news.
 */
function budgetBlocks(
  candidates: readonly Candidate[],
  budgets: Budgets,
  nodePools: readonly NodePool[],
): BudgetBlock[] {
  const out: BudgetBlock[] = [];
  for (const reason of DisruptionReasons) {
    for (const [name, budget] of budgets[reason]) {
      if (budget.allowed > 0) continue;
      if (!candidates.some((c) => c.node.nodePool === name && c.eligibility[reason] === true)) continue;
      const pool = nodePools.find((p) => p.metadata.name === name);
      if (pool === undefined) continue;
      out.push({ nodePool: name, reason, message: describeBudgetBlock(budget, pool) });
    }
  }
  return out;
}

/** The reason whose failure best explains why a candidate is not disruptable. */
function primaryReason(c: Candidate): DisruptionReason {
  if (c.drift !== undefined) return 'Drifted';
  return c.node.reschedulable.length === 0 ? 'Empty' : 'Underutilized';
}

/** The pass's winning method, its outcome, and how many nodes of each NodePool it disrupts. */
interface Winner {
  readonly method: DisruptionMethod;
  readonly outcome: MethodOutcome;
  readonly chosen: ReadonlyMap<string, number>;
}

/**
 * Whether the winner used up the node's NodePool allowance for the winner's reason: the method
 * passed the node over for budget, or its commands take all that is allowed.
 */
function budgetTaken(c: Candidate, budgets: Budgets, winner: Winner | undefined): boolean {
  if (winner === undefined) return false;
  if (winner.outcome.budgetSkipped.includes(c.name)) return true;
  const allowed = budgets[winner.method.reason].get(c.node.nodePool)?.allowed ?? 0;
  return allowed - (winner.chosen.get(c.node.nodePool) ?? 0) <= 0;
}

function explain(
  c: Candidate,
  budgets: Budgets,
  inCommand: boolean,
  winner: Winner | undefined,
): Pick<NodeDisruptionStatus, 'disruptable' | 'blockedBy' | 'reasons'> {
  const pool = c.node.nodePool;
  if (inCommand && winner !== undefined) {
    const reasons = DisruptionReasons.filter(
      (r) =>
        r === winner.method.reason || (c.eligibility[r] === true && (budgets[r].get(pool)?.allowed ?? 0) > 0),
    );
    return { disruptable: true, reasons };
  }
  const taken = budgetTaken(c, budgets, winner);
  const reasons = DisruptionReasons.filter((r) => {
    if (c.eligibility[r] !== true || (budgets[r].get(pool)?.allowed ?? 0) <= 0) return false;
    return !(taken && winner?.method.reason === r);
  });
  if (reasons.length > 0) return { disruptable: true, reasons };
  const r = primaryReason(c);
  const eligibility = c.eligibility[r];
  const budget = budgets[r].get(pool)!;
  const blockedBy =
    eligibility !== true
      ? eligibility
      : budget.allowed > 0
        ? describeBudgetTaken(budget)
        : describeBudgetBlock(budget, c.nodePool);
  return { disruptable: false, blockedBy, reasons: [] };
}

/**
 * One pass of the disruption controller over a snapshot at `now` (ms since the epoch), pure:
 * judges every managed node (see evaluateNodes), builds each NodePool's budget per reason
 * (see disruptionBudgets), then runs emptiness, drift, multi-node and single-node consolidation
 * in that order, each with a fresh allowance for its reason; the first method that yields a
 * command wins and the rest do not run. Every managed node comes back explained: disruptable
 * with its reasons, or the one rule that blocks it.
 */
export function computeDisruption(
  snapshot: DisruptionSnapshot,
  now: number,
  options?: DisruptionOptions,
): DisruptionResult {
  return finishNow(disruptionSteps(snapshot, now, options));
}

/**
 * `computeDisruption`, giving the event loop a turn whenever `slices.due()` says a slice is used
 * up, so a consolidation search over thousands of nodes does not hold up Lease renewals, probes
 * and scrapes. The pass stops only between two nodes or two pods of a simulation and reads
 * nothing outside its snapshot and search clock, so it decides what `computeDisruption` decides
 * for the same snapshot and search-clock readings.
 */
export function computeDisruptionInSlices(
  snapshot: DisruptionSnapshot,
  now: number,
  slices: Slices,
  options?: DisruptionOptions,
): Promise<DisruptionResult> {
  return finishInSlices(
    disruptionSteps(snapshot, now, options, () => slices.due()),
    slices,
  );
}

/** The pass as stoppable work (see `Steps`), stopping only when `due` says so. */
function* disruptionSteps(
  snapshot: DisruptionSnapshot,
  now: number,
  options?: DisruptionOptions,
  due?: Due,
): Steps<DisruptionResult> {
  const resolved = resolveDisruptionOptions(options);
  // One pass solves many times over the same capacity; without a cache from the caller (the
  // CLI), the pass keeps its own, so each node is prepared for the solver once, not per solve.
  if (snapshot.solverCache === undefined) snapshot = { ...snapshot, solverCache: new SolverCache() };
  const evaluations = yield* evaluationSteps(snapshot, now, due);
  const nodes = evaluations.map((e) => e.node);
  const budgets: Budgets = {
    Empty: disruptionBudgets(nodes, snapshot.nodePools, 'Empty', now),
    Drifted: disruptionBudgets(nodes, snapshot.nodePools, 'Drifted', now),
    Underutilized: disruptionBudgets(nodes, snapshot.nodePools, 'Underutilized', now),
  };
  const candidates = evaluations.flatMap((e) => (e.candidate === undefined ? [] : [e.candidate]));
  const totals = snapshot.nodePools.some((p) => p.spec.disruption.consolidationPolicy === 'Balanced')
    ? poolTotals(nodes, snapshot.instanceTypes)
    : undefined;
  const room = snapshot.room ?? new NodeRoom(snapshot);
  const notes = new Map<string, string>();
  const unconsolidatable = new Map<string, string>();
  const stopped: SearchCutShort[] = [];
  let winner: Winner | undefined;
  const evaluated: MethodEvaluation[] = [];
  const scored: ScoredMove[] = [];
  for (const method of DisruptionMethods) {
    if (due?.() === true) yield;
    const started = options?.elapsedMs?.();
    const outcome = yield* method.computeCommands(
      candidates.filter((c) => method.shouldDisrupt(c)),
      {
        snapshot,
        options: resolved,
        budgets: new BudgetLedger(budgets[method.reason]),
        room,
        ...(totals === undefined ? {} : { poolTotals: totals }),
        ...(due === undefined ? {} : { due }),
      },
    );
    evaluated.push({
      method: method.name,
      reason: method.reason,
      ...(started === undefined ? {} : { seconds: (options!.elapsedMs!() - started) / 1000 }),
    });
    for (const [name, note] of outcome.notes) if (!notes.has(name)) notes.set(name, note);
    for (const [name, why] of outcome.unconsolidatable ?? [])
      if (!unconsolidatable.has(name)) unconsolidatable.set(name, why);
    if (outcome.cutShort !== undefined) stopped.push(outcome.cutShort);
    scored.push(...(outcome.scoredMoves ?? []));
    if (outcome.commands.length > 0) {
      const chosen = new Map<string, number>();
      for (const command of outcome.commands) {
        for (const name of command.candidates) {
          const pool = candidates.find((c) => c.name === name)?.node.nodePool ?? '';
          chosen.set(pool, (chosen.get(pool) ?? 0) + 1);
        }
      }
      winner = { method, outcome, chosen };
      break;
    }
  }
  const commands = winner?.outcome.commands ?? [];
  const disrupted = new Set(commands.flatMap((c) => c.candidates));

  const statuses: NodeDisruptionStatus[] = evaluations.map((e) => {
    const head = { node: e.node.name, nodePool: e.node.nodePool };
    const c = e.candidate;
    if (c === undefined) {
      const price = nodePrice(e.node, snapshot.instanceTypes);
      return {
        ...head,
        disruptable: false,
        blockedBy: e.blockedBy!,
        reasons: [],
        ...(price.known ? { pricePerHour: price.price } : {}),
      };
    }
    const verdict = explain(c, budgets, disrupted.has(c.name), winner);
    const note = disrupted.has(c.name) ? undefined : notes.get(c.name);
    const untaken = disrupted.has(c.name) ? undefined : unconsolidatable.get(c.name);
    return {
      ...head,
      ...verdict,
      ...(c.drift === undefined ? {} : { drifted: c.drift.reason }),
      ...(c.price.known ? { pricePerHour: c.price.price } : {}),
      ...(note === undefined ? {} : { note }),
      ...(untaken === undefined ? {} : { unconsolidatable: untaken }),
    };
  });

  const allBudgets = DisruptionReasons.flatMap((r) => [...budgets[r].values()]);
  const problems = new Set<string>();
  for (const b of allBudgets) for (const e of b.limit.errors) problems.add(`NodePool/${b.nodePool}: ${e}`);
  return {
    commands,
    nodes: statuses,
    budgets: allBudgets,
    problems: [...problems],
    eligible: eligibleCandidates(candidates),
    blockedBudgets: budgetBlocks(candidates, budgets, snapshot.nodePools),
    cutShort: stopped,
    evaluated,
    scoredMoves: scored,
  };
}
