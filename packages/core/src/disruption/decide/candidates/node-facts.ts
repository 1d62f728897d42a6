import { durationMs } from '../../../apis/common/duration.js';
import type { Pod } from '../../../apis/kubernetes/pod.js';
import type { NodePool } from '../../../apis/v1/nodepool.js';
import { isPodActive } from '../../../kube/pod.js';
import { podCreationMillis, podKey } from '../../../scheduling/pod/identity.js';
import type { ManagedNode } from './managed-node.js';
import { type PdbLimits, type PodPdbMatch, pdbMatches } from './pdb-limits.js';
import { type DoNotDisruptRule, doNotDisruptRule, evictionCost } from './pods.js';

/** A pod whose `karpenter.sh/do-not-disrupt` protects its node, and until when. */
export interface ProtectedPod {
  readonly pod: Pod;
  readonly rule: DoNotDisruptRule;
}

/**
 * What evaluation reads of one managed node that time does not change: the instants its time
 * rules count from, its pods' eviction costs and do-not-disrupt rules. Judging the node at `now`
 * from these is a few comparisons (see evaluate.ts).
 */
export interface NodeFacts {
  /** When consolidateAfter starts counting (ms; NaN when unknown) and what set it, for the explanation. */
  readonly since: number;
  readonly sinceWhat: string;
  /** Creation (ms; NaN when unknown) and expireAfter (ms) for the share of lifetime left; lifetime undefined: never expires. */
  readonly created: number;
  readonly lifetimeMs: number | undefined;
  /** The sum of its reschedulable pods' eviction costs. */
  readonly evictionCost: number;
  /** A positive terminationGracePeriod applies: the drain ends by force, so drift need not wait for pods. */
  readonly forcedDrain: boolean;
  /** Active pods with a do-not-disrupt rule, in pod order. */
  readonly protectedPods: readonly ProtectedPod[];
}

/** The NodePool fields node facts depend on, as one string (see NodeFactsMemo). */
function poolKey(pool: NodePool): string {
  const t = pool.spec.template.spec;
  return `${t.expireAfter ?? ''}|${t.terminationGracePeriod ?? ''}`;
}

/** The facts of one managed node under its NodePool (see NodeFacts). */
export function nodeFacts(node: ManagedNode, pool: NodePool): NodeFacts {
  const claim = node.nodeClaim;
  const lastEvent = claim?.status?.lastPodEventTime;
  let since: number;
  let sinceWhat: string;
  if (lastEvent !== undefined) {
    since = Date.parse(lastEvent);
    sinceWhat = 'the last pod event';
  } else {
    const created = Date.parse(
      node.node.metadata.creationTimestamp ?? claim?.metadata.creationTimestamp ?? '',
    );
    since = Number.isNaN(created) ? Number.NEGATIVE_INFINITY : created;
    sinceWhat = 'the node was created';
    for (const p of node.pods) {
      if (!isPodActive(p)) continue;
      const t = podCreationMillis(p);
      if (t > since) {
        since = t;
        sinceWhat = `pod ${podKey(p)} was created`;
      }
    }
  }
  const total = durationMs(claim?.spec.expireAfter ?? pool.spec.template.spec.expireAfter);
  const gracePeriod = claim?.spec.terminationGracePeriod ?? pool.spec.template.spec.terminationGracePeriod;
  const protectedPods: ProtectedPod[] = [];
  for (const pod of node.pods) {
    const rule = doNotDisruptRule(pod);
    if (rule !== undefined) protectedPods.push({ pod, rule });
  }
  return {
    since,
    sinceWhat,
    created: Date.parse(claim?.metadata.creationTimestamp ?? node.node.metadata.creationTimestamp ?? ''),
    lifetimeMs: total === undefined || !Number.isFinite(total) || total <= 0 ? undefined : total,
    evictionCost: node.reschedulable.reduce((sum, p) => sum + evictionCost(p), 0),
    forcedDrain: gracePeriod !== undefined && (durationMs(gracePeriod) ?? 0) > 0,
    protectedPods,
  };
}

/** The share of the node's lifetime (expireAfter) left at `now`: 1 when it never expires. */
export function lifetimeLeft(facts: NodeFacts, now: number): number {
  if (facts.lifetimeMs === undefined || Number.isNaN(facts.created)) return 1;
  return Math.min(1, Math.max(0, (facts.lifetimeMs - (now - facts.created)) / facts.lifetimeMs));
}

/** Why a do-not-disrupt pod keeps the node at `now`, or undefined. */
export function doNotDisruptBlock(facts: NodeFacts, now: number): string | undefined {
  for (const { pod, rule } of facts.protectedPods)
    if (rule.until > now) return `pod ${podKey(pod)} ${rule.message}`;
  return undefined;
}

/**
 * Node facts and PDB matches kept per managed node between passes. A ManagedNode is the same
 * object while its Node, NodeClaim and pods are unchanged (ManagedNodeMemo); its facts also read
 * the NodePool's expireAfter and terminationGracePeriod, and its PDB matches the PDBs' selectors,
 * so each is kept under those. At 500 nodes and a pass every few simulated seconds, working
 * these out for every node on every pass was a tenth of a week-long simulation.
 */
export class NodeFactsMemo {
  readonly #facts = new WeakMap<ManagedNode, { readonly pool: string; readonly facts: NodeFacts }>();
  readonly #pdbs = new WeakMap<
    ManagedNode,
    { readonly selectors: string; readonly matches: readonly PodPdbMatch[] }
  >();

  facts(node: ManagedNode, pool: NodePool): NodeFacts {
    const key = poolKey(pool);
    const kept = this.#facts.get(node);
    if (kept !== undefined && kept.pool === key) return kept.facts;
    const facts = nodeFacts(node, pool);
    this.#facts.set(node, { pool: key, facts });
    return facts;
  }

  pdbMatches(node: ManagedNode, limits: PdbLimits): readonly PodPdbMatch[] {
    const kept = this.#pdbs.get(node);
    if (kept !== undefined && kept.selectors === limits.selectors) return kept.matches;
    const matches = pdbMatches(node.pods, limits);
    this.#pdbs.set(node, { selectors: limits.selectors, matches });
    return matches;
  }
}
