import type { DisruptionReason } from '../../../apis/v1/budget.js';
import type { Due, Steps } from '../../../clock/slices.js';
import type { NewClaim } from '../../../scheduling/solver/types.js';
import type { PoolTotals, ScoredMove } from '../balanced/balanced-score.js';
import type { BudgetLedger } from '../budgets/budget-mapping.js';
import type { Candidate } from '../candidates/evaluate.js';
import type { Move } from '../simulation/simulate-rescheduling.js';
import type { DisruptionSnapshot, ResolvedDisruptionOptions } from '../snapshot.js';
import type { NodeRoom } from './node-room.js';
import type { SearchCutShort } from './search-budget.js';

const DisruptionMethodNames = [
  'emptiness',
  'drift',
  'multi-node-consolidation',
  'single-node-consolidation',
] as const;
export type DisruptionMethodName = (typeof DisruptionMethodNames)[number];

/** One decision: delete these nodes, after launching these replacements. */
export interface DisruptionCommand {
  readonly method: DisruptionMethodName;
  readonly reason: DisruptionReason;
  /** Node names, in the order the method chose them. */
  readonly candidates: readonly string[];
  /** NodeClaims to launch (and see initialized) before the candidates are deleted. */
  readonly replacements: readonly NewClaim[];
  /** The candidates' prices minus the replacements' (nodes of unknown price count 0). */
  readonly savingsPerHour: number;
  /** Where the simulation put each of the candidates' reschedulable pods. */
  readonly moves: readonly Move[];
}

/** What a method works with in one pass. */
export interface MethodContext {
  readonly snapshot: DisruptionSnapshot;
  readonly options: ResolvedDisruptionOptions;
  /** The allowance for this method's reason, fresh for this method; it takes from it. */
  readonly budgets: BudgetLedger;
  /**
   * Per NodePool, the totals a Balanced consolidation score divides by; absent when no NodePool
   * has consolidationPolicy Balanced.
   */
  readonly poolTotals?: ReadonlyMap<string, PoolTotals>;
  /**
   * When the pass may stop to give the event loop a turn (see `Steps`); the method's search and
   * its simulations stop only when it says so. Absent: the pass runs in one stretch.
   */
  readonly due?: Due;
  /**
   * The room the pass's nodes have left, for consolidation to turn away candidates whose pods
   * have nowhere cheaper to go without simulating them (see `noCheaperHome`). Absent: every
   * candidate is simulated.
   */
  readonly room?: NodeRoom;
}

/** A method's answer: its commands, and what a person asking "why not this node?" needs. */
export interface MethodOutcome {
  readonly commands: readonly DisruptionCommand[];
  /** Candidates passed over because their NodePool had no allowance left. */
  readonly budgetSkipped: readonly string[];
  /** Per candidate the method tried and did not take: why. */
  readonly notes: ReadonlyMap<string, string>;
  /**
   * Per candidate whose removal a consolidation method simulated and found not worth taking:
   * why, without the note's framing (Karpenter's Unconsolidatable event carries it). Candidates
   * the method skipped (time budget, no allowance) are not here.
   */
  readonly unconsolidatable?: ReadonlyMap<string, string>;
  /** Set when the method's time budget ran out before its search was done. */
  readonly cutShort?: SearchCutShort;
  /** Consolidation moves the method scored (see `attemptMoves`), for the consolidation-move metrics. */
  readonly scoredMoves?: readonly ScoredMove[];
}

/**
 * A disruption method, as upstream's Method: the reason it disrupts for, its class (eventual
 * methods may ignore blocking pods when a grace period bounds the drain), which candidates it
 * considers, and the pure decision over them.
 */
export interface DisruptionMethod {
  readonly name: DisruptionMethodName;
  readonly reason: DisruptionReason;
  readonly disruptionClass: 'graceful' | 'eventual';
  shouldDisrupt(candidate: Candidate): boolean;
  /** Stoppable work (see `Steps`): it stops only when `context.due` says so. */
  computeCommands(candidates: readonly Candidate[], context: MethodContext): Steps<MethodOutcome>;
}

/** A price sum without floating-point dust (0.6, not 0.6000000000000001); nano-dollar precision. */
export function roundPrice(price: number): number {
  return Math.round(price * 1e9) / 1e9;
}

/** The sum of the candidates' known prices, per hour. */
export function candidatesPrice(candidates: readonly Candidate[]): number {
  return roundPrice(candidates.reduce((sum, c) => sum + (c.price.known ? c.price.price : 0), 0));
}

/** A price per hour as notes show it: `$0.07/h`, at most six decimals. */
export function formatPrice(p: number): string {
  return `$${Number(p.toFixed(6))}/h`;
}

export function compareNames(a: Candidate, b: Candidate): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
