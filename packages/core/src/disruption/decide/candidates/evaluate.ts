import { durationMs } from '../../../apis/common/duration.js';
import { Annotations } from '../../../apis/labels.js';
import type { DisruptionReason } from '../../../apis/v1/budget.js';
import type { NodePool } from '../../../apis/v1/nodepool.js';
import { type Due, finishNow, type Steps } from '../../../clock/slices.js';
import { type DriftBasis, driftBasis } from '../../../nodeclaim/drift/static-drift.js';
import { podKey } from '../../../scheduling/pod/identity.js';
import type { DisruptionSnapshot } from '../snapshot.js';
import { type Drift, nodeDrift } from './drift.js';
import { type ManagedNode, managedNodes } from './managed-node.js';
import { doNotDisruptBlock, lifetimeLeft, type NodeFacts, nodeFacts } from './node-facts.js';
import { type NodePrice, nodePrice } from './node-price.js';
import { type PdbLimits, pdbBlockOf, pdbLimits, pdbMatches } from './pdb-limits.js';

/** Eligibility for one reason: true, or why the node does not qualify (budgets aside). */
export type Eligibility = true | string;

/** A node that passed the node-level checks, as the methods see it. */
export interface Candidate {
  readonly node: ManagedNode;
  readonly name: string;
  readonly nodePool: NodePool;
  readonly price: NodePrice;
  readonly drift: Drift | undefined;
  /**
   * Karpenter's disruption cost: the eviction costs of its reschedulable pods, times the share
   * of its lifetime (expireAfter) left. 0 for an empty node.
   */
  readonly disruptionCost: number;
  /** Per reason: whether the matching method may take the node before budgets are applied. */
  readonly eligibility: Readonly<Record<DisruptionReason, Eligibility>>;
}

/** One managed node's verdict before budgets: a candidate, or the rule that blocks every method. */
export interface NodeEvaluation {
  readonly node: ManagedNode;
  readonly candidate: Candidate | undefined;
  /** Set exactly when `candidate` is not. */
  readonly blockedBy: string | undefined;
}

function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** Blocks that apply to every method, in Karpenter's order. */
function nodeLevelBlock(node: ManagedNode, pool: NodePool | undefined): string | undefined {
  if (!node.initialized) return 'node is not initialized yet';
  if (node.deletingBecause !== undefined) return node.deletingBecause;
  if (node.nominated.length > 0)
    return `node is nominated for pending pod ${podKey(node.nominated[0]!)}${node.nominated.length > 1 ? ` and ${node.nominated.length - 1} more` : ''}`;
  if (node.annotations[Annotations.DoNotDisrupt] === 'true') return `node has ${Annotations.DoNotDisrupt}`;
  if (pool === undefined) return `NodePool ${node.nodePool} does not exist`;
  if (pool.spec.replicas !== undefined)
    return `NodePool ${node.nodePool} is static (spec.replicas): its nodes are not disrupted by this pass`;
  return undefined;
}

/**
 * When the node counts as consolidatable: consolidateAfter (`afterMs`) after its last pod event —
 * `NodeClaim.status.lastPodEventTime` where given, else the later of the node's creation and its
 * newest pod's (see nodeFacts). Returns why not yet, or undefined when it is.
 */
function consolidationWait(
  facts: NodeFacts,
  pool: NodePool,
  afterMs: number,
  now: number,
): string | undefined {
  const { since } = facts;
  if (Number.isNaN(since) || now - since >= afterMs) return undefined;
  return `consolidateAfter ${pool.spec.disruption.consolidateAfter} has not passed since ${facts.sinceWhat} (${formatTime(since)}); consolidatable from ${formatTime(since + afterMs)}`;
}

function consolidationBlock(pool: NodePool): string | undefined {
  if (pool.spec.disruption.consolidateAfter === 'Never')
    return `NodePool ${pool.metadata.name} has consolidation disabled (consolidateAfter: Never)`;
  return undefined;
}

/** What evaluation reads of a NodePool, worked out once a pass. */
interface PoolRules {
  readonly basis: DriftBasis;
  readonly consolidateAfterMs: number;
}

function evaluate(
  node: ManagedNode,
  pool: NodePool,
  snapshot: DisruptionSnapshot,
  limits: PdbLimits,
  now: number,
  rules: PoolRules,
): NodeEvaluation {
  // Not `??`: a kept "no drift" is undefined too, and must not be worked out again.
  const drift =
    snapshot.nodeDrift === undefined
      ? nodeDrift(node, pool, rules.basis)
      : snapshot.nodeDrift.drift(node, pool, rules.basis);
  const memo = snapshot.nodeFacts;
  const facts = memo === undefined ? nodeFacts(node, pool) : memo.facts(node, pool);
  // Pods that keep the node from being drained: do-not-disrupt, then PDBs.
  const podBlock =
    doNotDisruptBlock(facts, now) ??
    pdbBlockOf(memo === undefined ? pdbMatches(node.pods, limits) : memo.pdbMatches(node, limits), limits);
  // With a termination grace period the drain ends by force anyway, so drift (an eventual
  // disruption) need not wait for PDBs or do-not-disrupt pods, as upstream.
  const driftIgnoresPods = drift !== undefined && facts.forcedDrain;
  if (podBlock !== undefined && !driftIgnoresPods) return { node, candidate: undefined, blockedBy: podBlock };

  const empty = node.reschedulable.length === 0;
  const price =
    snapshot.nodePrices?.price(node, snapshot.instanceTypes) ?? nodePrice(node, snapshot.instanceTypes);
  const consolidation =
    podBlock ?? consolidationBlock(pool) ?? consolidationWait(facts, pool, rules.consolidateAfterMs, now);
  const policy = pool.spec.disruption.consolidationPolicy;
  let underutilized: Eligibility = true;
  if (empty) underutilized = 'node is empty: emptiness removes it';
  else if (consolidation !== undefined) underutilized = consolidation;
  else if (policy === 'WhenEmpty')
    underutilized = `NodePool ${pool.metadata.name} has consolidationPolicy ${policy} and the node is not empty (${node.reschedulable.length} pod${node.reschedulable.length === 1 ? '' : 's'} would move)`;
  else if (!price.known) underutilized = price.problem;

  const cost = facts.evictionCost * lifetimeLeft(facts, now);
  return {
    node,
    blockedBy: undefined,
    candidate: {
      node,
      name: node.name,
      nodePool: pool,
      price,
      drift,
      disruptionCost: cost,
      eligibility: {
        Empty: empty ? (consolidation ?? true) : 'node is not empty',
        Drifted: drift === undefined ? 'node has not drifted' : true,
        Underutilized: underutilized,
      },
    },
  };
}

/**
 * Judges every managed node of the snapshot at `now` (budgets aside): the rule that keeps every
 * method off it, in Karpenter's order (not initialized, deleting, nominated, node
 * do-not-disrupt, unknown or static NodePool, then pods: do-not-disrupt and PDBs, which drift
 * ignores when a terminationGracePeriod is set), or a candidate with per-reason eligibility
 * (consolidateAfter, Never, consolidationPolicy, unknown price). Sorted by node name.
 */
export function evaluateNodes(snapshot: DisruptionSnapshot, now: number): NodeEvaluation[] {
  return finishNow(evaluationSteps(snapshot, now));
}

/** `evaluateNodes` as stoppable work (see `Steps`): it may stop between two nodes. */
export function* evaluationSteps(
  snapshot: DisruptionSnapshot,
  now: number,
  due?: Due,
): Steps<NodeEvaluation[]> {
  const pools = new Map(snapshot.nodePools.map((p) => [p.metadata.name ?? '', p]));
  const allPods = [...snapshot.pendingPods, ...snapshot.capacity.flatMap((c) => c.pods)];
  const limits = pdbLimits(snapshot.podDisruptionBudgets, allPods, now);
  const rules = new Map<NodePool, PoolRules>();
  const rulesOf = (pool: NodePool) => {
    let r = rules.get(pool);
    if (r === undefined) {
      r = {
        basis: driftBasis(pool),
        consolidateAfterMs: durationMs(pool.spec.disruption.consolidateAfter) ?? 0,
      };
      rules.set(pool, r);
    }
    return r;
  };
  const out: NodeEvaluation[] = [];
  for (const node of managedNodes(snapshot.capacity, snapshot.markedForDeletion, snapshot.managedNodes)) {
    if (due?.() === true) yield;
    const pool = pools.get(node.nodePool);
    const blocked = nodeLevelBlock(node, pool);
    out.push(
      blocked !== undefined || pool === undefined
        ? { node, candidate: undefined, blockedBy: blocked }
        : evaluate(node, pool, snapshot, limits, now, rulesOf(pool)),
    );
  }
  return out;
}
