import { durationMs } from '../../../apis/common/duration.js';
import { Annotations } from '../../../apis/labels.js';
import type { DisruptionReason } from '../../../apis/v1/budget.js';
import type { NodePool } from '../../../apis/v1/nodepool.js';
import { type Due, finishNow, type Steps } from '../../../clock/slices.js';
import { isPodActive } from '../../../kube/pod.js';
import { type DriftBasis, driftBasis } from '../../../nodeclaim/drift/static-drift.js';
import { podCreationMillis, podKey } from '../../../scheduling/pod/identity.js';
import type { DisruptionSnapshot } from '../snapshot.js';
import { type Drift, nodeDrift } from './drift.js';
import { type ManagedNode, managedNodes } from './managed-node.js';
import { type NodePrice, nodePrice } from './node-price.js';
import { type PdbLimits, pdbBlock, pdbLimits } from './pdb-limits.js';
import { doNotDisruptProtection, evictionCost } from './pods.js';

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

/** Pods that keep the node from being drained: do-not-disrupt, then PDBs. */
function podLevelBlock(node: ManagedNode, limits: PdbLimits, now: number): string | undefined {
  for (const pod of node.pods) {
    const protection = doNotDisruptProtection(pod, now);
    if (protection !== undefined) return `pod ${podKey(pod)} ${protection}`;
  }
  return pdbBlock(node.pods, limits);
}

/**
 * When the node counts as consolidatable: consolidateAfter after its last pod event —
 * `NodeClaim.status.lastPodEventTime` where given, else the later of the node's creation and its
 * newest pod's. Returns why not yet, or undefined when it is.
 */
function consolidationWait(node: ManagedNode, pool: NodePool, now: number): string | undefined {
  const after = pool.spec.disruption.consolidateAfter;
  const ms = durationMs(after) ?? 0;
  const lastEvent = node.nodeClaim?.status?.lastPodEventTime;
  let since: number;
  let what: string;
  if (lastEvent !== undefined) {
    since = Date.parse(lastEvent);
    what = 'the last pod event';
  } else {
    const created = Date.parse(
      node.node.metadata.creationTimestamp ?? node.nodeClaim?.metadata.creationTimestamp ?? '',
    );
    since = Number.isNaN(created) ? Number.NEGATIVE_INFINITY : created;
    what = 'the node was created';
    for (const p of node.pods) {
      if (!isPodActive(p)) continue;
      const t = podCreationMillis(p);
      if (t > since) {
        since = t;
        what = `pod ${podKey(p)} was created`;
      }
    }
  }
  if (Number.isNaN(since) || now - since >= ms) return undefined;
  return `consolidateAfter ${after} has not passed since ${what} (${formatTime(since)}); consolidatable from ${formatTime(since + ms)}`;
}

function lifetimeRemaining(node: ManagedNode, pool: NodePool, now: number): number {
  const expireAfter = node.nodeClaim?.spec.expireAfter ?? pool.spec.template.spec.expireAfter;
  const total = durationMs(expireAfter);
  if (total === undefined || !Number.isFinite(total) || total <= 0) return 1;
  const created = Date.parse(
    node.nodeClaim?.metadata.creationTimestamp ?? node.node.metadata.creationTimestamp ?? '',
  );
  if (Number.isNaN(created)) return 1;
  return Math.min(1, Math.max(0, (total - (now - created)) / total));
}

function consolidationBlock(pool: NodePool): string | undefined {
  if (pool.spec.disruption.consolidateAfter === 'Never')
    return `NodePool ${pool.metadata.name} has consolidation disabled (consolidateAfter: Never)`;
  return undefined;
}

function evaluate(
  node: ManagedNode,
  pool: NodePool,
  snapshot: DisruptionSnapshot,
  limits: PdbLimits,
  now: number,
  basis: DriftBasis,
): NodeEvaluation {
  // Not `??`: a kept "no drift" is undefined too, and must not be worked out again.
  const drift =
    snapshot.nodeDrift === undefined
      ? nodeDrift(node, pool, basis)
      : snapshot.nodeDrift.drift(node, pool, basis);
  const podBlock = podLevelBlock(node, limits, now);
  const gracePeriod =
    node.nodeClaim?.spec.terminationGracePeriod ?? pool.spec.template.spec.terminationGracePeriod;
  // With a termination grace period the drain ends by force anyway, so drift (an eventual
  // disruption) need not wait for PDBs or do-not-disrupt pods, as upstream.
  const driftIgnoresPods =
    drift !== undefined && gracePeriod !== undefined && (durationMs(gracePeriod) ?? 0) > 0;
  if (podBlock !== undefined && !driftIgnoresPods) return { node, candidate: undefined, blockedBy: podBlock };

  const empty = node.reschedulable.length === 0;
  const price =
    snapshot.nodePrices?.price(node, snapshot.instanceTypes) ?? nodePrice(node, snapshot.instanceTypes);
  const consolidation = podBlock ?? consolidationBlock(pool) ?? consolidationWait(node, pool, now);
  const policy = pool.spec.disruption.consolidationPolicy;
  let underutilized: Eligibility = true;
  if (empty) underutilized = 'node is empty: emptiness removes it';
  else if (consolidation !== undefined) underutilized = consolidation;
  else if (policy === 'WhenEmpty')
    underutilized = `NodePool ${pool.metadata.name} has consolidationPolicy ${policy} and the node is not empty (${node.reschedulable.length} pod${node.reschedulable.length === 1 ? '' : 's'} would move)`;
  else if (!price.known) underutilized = price.problem;

  const cost =
    node.reschedulable.reduce((sum, p) => sum + evictionCost(p), 0) * lifetimeRemaining(node, pool, now);
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
  const bases = new Map<NodePool, DriftBasis>();
  const basisOf = (pool: NodePool) => {
    let basis = bases.get(pool);
    if (basis === undefined) {
      basis = driftBasis(pool);
      bases.set(pool, basis);
    }
    return basis;
  };
  const out: NodeEvaluation[] = [];
  for (const node of managedNodes(snapshot.capacity, snapshot.markedForDeletion, snapshot.managedNodes)) {
    if (due?.() === true) yield;
    const pool = pools.get(node.nodePool);
    const blocked = nodeLevelBlock(node, pool);
    out.push(
      blocked !== undefined || pool === undefined
        ? { node, candidate: undefined, blockedBy: blocked }
        : evaluate(node, pool, snapshot, limits, now, basisOf(pool)),
    );
  }
  return out;
}
