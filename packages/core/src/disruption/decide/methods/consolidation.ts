import { CapacityTypes } from '../../../apis/labels.js';
import { finishNow, type Steps } from '../../../clock/slices.js';
import type { SolverOptions } from '../../../scheduling/solver/types.js';
import {
  type BalancedVerdict,
  balancedVerdict,
  describeRejection,
  type ScoredCandidate,
  type ScoredMove,
  scoredMoves,
} from '../balanced/balanced-score.js';
import type { Candidate } from '../candidates/evaluate.js';
import { describeFailures, simulationSteps } from '../simulation/simulate-rescheduling.js';
import type { DisruptionCommand, MethodContext } from './method.js';
import { compareNames, formatPrice, roundPrice } from './method.js';
import { MinSpotToSpotTypes, noCheaperHome } from './no-cheaper-home.js';
import {
  allowsCapacityType,
  cheaperTypes,
  minValuesNeeded,
  minValuesProblem,
  narrowClaim,
  spotOnly,
} from './replacement.js';
import { secondClaimNeeded } from './second-claim.js';

/**
 * A consolidation command for the candidates, or why there is none; `balanced` is the Balanced
 * verdict on the command the simulation found (absent when no candidate's pool is Balanced, or
 * when no command was found to score).
 */
export type ConsolidationAttempt = ({ readonly command: DisruptionCommand } | { readonly why: string }) & {
  readonly balanced?: BalancedVerdict;
};

function priceOf(c: Candidate): number {
  return c.price.known ? c.price.price : 0;
}

/**
 * Consolidation's candidate order: most price saved per unit of disruption first (price /
 * disruption cost; a node whose pods cost nothing to move first of all), then by name.
 */
export function consolidationOrder(candidates: readonly Candidate[]): Candidate[] {
  const value = (c: Candidate) =>
    c.disruptionCost > 0 ? priceOf(c) / c.disruptionCost : Number.POSITIVE_INFINITY;
  return [...candidates].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    return x !== y ? (x > y ? -1 : 1) : compareNames(a, b);
  });
}

/**
 * Karpenter's computeConsolidation over a set of candidates (all of known price): every pod
 * that must move reschedules onto the remaining nodes plus at most one new NodeClaim. None:
 * delete. One: replace, keeping only instance types whose worst launch price is below the
 * candidates' total (and still meeting minValues); when some candidate is on-demand and the
 * replacement could be spot or on-demand, it is pinned to spot, since the prices assumed
 * spot. All spot candidates to a spot replacement is spot-to-spot: it must be enabled and, for
 * one node, have at least 15 cheaper types, of which the 15 cheapest (or what minValues needs)
 * are kept so the replacement is not itself replaced at once. Soft constraints are held as
 * requirements first; with `consolidationPreferences: RelaxWhenBlocking` (the default) an
 * attempt that fails with them is made again without them, and the first command found wins.
 */
export function computeConsolidation(
  method: 'multi-node-consolidation' | 'single-node-consolidation',
  candidates: readonly Candidate[],
  context: MethodContext,
): ConsolidationAttempt {
  return finishNow(consolidationSteps(method, candidates, context));
}

/** `computeConsolidation` as stoppable work (see `Steps`): it stops where its simulations do. */
export function* consolidationSteps(
  method: 'multi-node-consolidation' | 'single-node-consolidation',
  candidates: readonly Candidate[],
  context: MethodContext,
): Steps<ConsolidationAttempt> {
  const { options } = context;
  // Asked once, not once per attempt: neither the Balanced gate on deleting outright nor the
  // screen reads the solver options, so the attempt without preferences would be refused alike.
  const refused = refusedUnsimulated(candidates, context);
  if (refused !== undefined) return refused;
  const strict = yield* consolidateWith(method, candidates, context, options.solverOptions);
  if ('command' in strict || options.consolidationPreferences === 'Respect') return strict;
  if (options.solverOptions?.ignorePreferences === true) return strict;
  // Only when the preferences are what stands in the way: a command that keeps them is kept.
  const relaxed = yield* consolidateWith(method, candidates, context, {
    ...options.solverOptions,
    ignorePreferences: true,
  });
  return 'command' in relaxed ? relaxed : strict;
}

/** A candidate as the Balanced score reads it. */
function scored(c: Candidate): ScoredCandidate {
  return {
    nodePool: c.node.nodePool,
    consolidationPolicy: c.nodePool.spec.disruption.consolidationPolicy,
    price: priceOf(c),
    reschedulable: c.node.reschedulable,
  };
}

/**
 * Why the candidates are turned away before any simulation, or undefined. First the Balanced
 * policy's gate (Karpenter v1.14): a move that takes nodes of a Balanced NodePool must save at
 * least half as large a share of the pool's cost as the share of its disruption it causes, and
 * deleting the candidates outright is the best any move can score. Then the screens, which know
 * without simulating that no command can come of it (noCheaperHome, secondClaimNeeded).
 */
function refusedUnsimulated(
  candidates: readonly Candidate[],
  { snapshot, options, room, poolTotals }: MethodContext,
): ConsolidationAttempt | undefined {
  if (poolTotals !== undefined) {
    const best = balancedVerdict(
      candidates.map(scored),
      candidates.reduce((s, c) => s + priceOf(c), 0),
      poolTotals,
    );
    if (best !== undefined && !best.approved)
      return { why: `even deleting it scores too low: ${describeRejection(best.scores)}` };
  }
  if (room === undefined) return undefined;
  // In the candidates' order: the first pod found stuck names the verdict.
  const key = `${options.spotToSpotConsolidation ? 'spot' : 'no-spot'}:${candidates.map((c) => c.name).join(',')}`;
  const why = room.screened(
    key,
    () =>
      noCheaperHome(candidates, snapshot, room, options.spotToSpotConsolidation) ??
      secondClaimNeeded(candidates, snapshot, room),
  );
  return why === undefined ? undefined : { why };
}

/**
 * `consolidateUnscored`, then the Balanced policy's gate on the command found (see
 * refusedUnsimulated, which the caller has asked first).
 */
function* consolidateWith(
  method: 'multi-node-consolidation' | 'single-node-consolidation',
  candidates: readonly Candidate[],
  context: MethodContext,
  solverOptions: SolverOptions | undefined,
): Steps<ConsolidationAttempt> {
  const totals = context.poolTotals;
  const asScored = totals === undefined ? [] : candidates.map(scored);
  const attempt = yield* consolidateUnscored(method, candidates, context, solverOptions);
  if (totals === undefined || !('command' in attempt)) return attempt;
  const verdict = balancedVerdict(asScored, attempt.command.savingsPerHour, totals);
  if (verdict === undefined) return attempt;
  if (verdict.approved) return { ...attempt, balanced: verdict };
  return { why: describeRejection(verdict.scores), balanced: verdict };
}

/**
 * The scored moves of an attempt, as Karpenter counts them: a command found is a move (approved,
 * whatever the policy); one a Balanced pool turned away is a rejected move; an attempt that
 * found no command is none.
 */
export function attemptMoves(candidates: readonly Candidate[], attempt: ConsolidationAttempt): ScoredMove[] {
  if ('command' in attempt) return scoredMoves(candidates.map(scored), 'approved', attempt.balanced);
  if (attempt.balanced !== undefined)
    return scoredMoves(candidates.map(scored), 'rejected', attempt.balanced);
  return [];
}

function* consolidateUnscored(
  method: 'multi-node-consolidation' | 'single-node-consolidation',
  candidates: readonly Candidate[],
  { snapshot, options, due }: MethodContext,
  solverOptions: SolverOptions | undefined,
): Steps<ConsolidationAttempt> {
  const sim = yield* simulationSteps(snapshot, new Set(candidates.map((c) => c.name)), solverOptions, due);
  if (sim.failures.length > 0)
    return { why: `its pods would not all reschedule: ${describeFailures(sim.failures)}` };
  const price = candidates.reduce((s, c) => s + priceOf(c), 0);
  const base = {
    method,
    reason: 'Underutilized' as const,
    candidates: candidates.map((c) => c.name),
    moves: sim.moves,
  };
  if (sim.newClaims.length === 0)
    return { command: { ...base, replacements: [], savingsPerHour: roundPrice(price) } };
  if (sim.newClaims.length > 1)
    return {
      why: `its pods would need ${sim.newClaims.length} new NodeClaims; consolidation launches at most one`,
    };

  const claim = sim.newClaims[0]!;
  // Pending pods (and those of nodes already deleting) ride on the replacement too, as in
  // Karpenter's simulation; a "no cheaper type" must say so, or it reads as a pricing fault.
  const riders = claim.pods.length - sim.moves.filter((m) => 'replacement' in m.to).length;
  const fitted =
    riders > 0
      ? `its pods and the ${riders} other pod${riders === 1 ? '' : 's'} waiting for capacity`
      : 'its pods';
  const allSpot = candidates.every((c) => c.price.known && c.price.capacityType === CapacityTypes.Spot);
  if (allSpot && allowsCapacityType(claim.requirements, CapacityTypes.Spot)) {
    if (!options.spotToSpotConsolidation) return { why: 'spot-to-spot consolidation is disabled' };
    const requirements = spotOnly(claim.requirements);
    const cheaper = cheaperTypes(claim.instanceTypes, requirements, price);
    if (cheaper.length === 0)
      return { why: `no spot instance type that fits ${fitted} is cheaper than ${formatPrice(price)}` };
    const problem = minValuesProblem(cheaper, requirements);
    if (problem !== undefined) return { why: problem };
    let kept = narrowClaim(claim, cheaper, requirements).instanceTypes;
    if (candidates.length === 1) {
      if (kept.length < MinSpotToSpotTypes)
        return {
          why: `spot-to-spot consolidation needs at least ${MinSpotToSpotTypes} cheaper spot instance types, found ${kept.length}`,
        };
      kept = kept.slice(0, Math.max(MinSpotToSpotTypes, minValuesNeeded(kept, requirements)));
    }
    const replacement = narrowClaim(claim, kept, requirements);
    return {
      command: {
        ...base,
        replacements: [replacement],
        savingsPerHour: roundPrice(price - replacement.price),
      },
    };
  }

  const cheaper = cheaperTypes(claim.instanceTypes, claim.requirements, price);
  if (cheaper.length === 0)
    return { why: `no instance type that fits ${fitted} is cheaper than ${formatPrice(price)}` };
  const problem = minValuesProblem(cheaper, claim.requirements);
  if (problem !== undefined) return { why: problem };
  let requirements = claim.requirements;
  const narrowed = narrowClaim(claim, cheaper, requirements);
  if (
    allowsCapacityType(narrowed.requirements, CapacityTypes.Spot) &&
    allowsCapacityType(narrowed.requirements, CapacityTypes.OnDemand)
  ) {
    requirements = spotOnly(requirements);
  }
  const replacement = narrowClaim(claim, cheaper, requirements);
  return {
    command: { ...base, replacements: [replacement], savingsPerHour: roundPrice(price - replacement.price) },
  };
}
