import type { Pod } from '../../../apis/kubernetes/pod.js';
import type { NodePool } from '../../../apis/v1/nodepool.js';
import { type Due, finishNow, type Steps } from '../../../clock/slices.js';
import { isReschedulable } from '../../../kube/pod.js';
import { podKey } from '../../../scheduling/pod/identity.js';
import { solveSteps } from '../../../scheduling/solver/solve.js';
import type {
  ExistingCapacity,
  NewClaim,
  SolverInput,
  SolverOptions,
} from '../../../scheduling/solver/types.js';
import { isDeletingCapacity } from '../candidates/managed-node.js';
import type { DisruptionSnapshot } from '../snapshot.js';

/** Where a pod of a disrupted node would go: an existing node, or a replacement (by index). */
export type MoveTarget = { readonly node: string } | { readonly replacement: number };

export interface Move {
  readonly pod: Pod;
  readonly to: MoveTarget;
}

/** The outcome of rescheduling some nodes' pods onto the rest of the cluster. */
export interface Simulation {
  /** Pods that must move (the candidates' and deleting nodes') but would not, with why. */
  readonly failures: ReadonlyArray<{ readonly pod: Pod; readonly reason: string }>;
  /** New NodeClaims the moved pods (and pending pods) would need. */
  readonly newClaims: readonly NewClaim[];
  /** Where each of the candidates' pods would go. */
  readonly moves: readonly Move[];
}

/** NodePools the provisioner would launch from: not being deleted, not static, not NotReady. */
export function canProvision(pool: NodePool): boolean {
  if (pool.metadata.deletionTimestamp !== undefined || pool.spec.replicas !== undefined) return false;
  return pool.status?.conditions?.find((c) => c.type === 'Ready')?.status !== 'False';
}

/**
 * Karpenter's SimulateScheduling: the candidates and the nodes already deleting take no pods
 * (their pods stay out of topology counts, the way the solver excludes pods it is placing);
 * their reschedulable pods and the pending pods are solved onto the remaining capacity and new
 * NodeClaims. A pod that must move fails when it fits nowhere, or when it would land on a node
 * that is not initialized yet (unless it comes from a deleting node, whose replacement is
 * assumed on its way).
 */
export function simulateRescheduling(
  snapshot: DisruptionSnapshot,
  candidates: ReadonlySet<string>,
  solverOptions?: SolverOptions,
): Simulation {
  return finishNow(simulationSteps(snapshot, candidates, solverOptions));
}

/** `simulateRescheduling` as stoppable work (see `Steps`): it stops where its solve does. */
export function* simulationSteps(
  snapshot: DisruptionSnapshot,
  candidates: ReadonlySet<string>,
  solverOptions?: SolverOptions,
  due?: Due,
): Steps<Simulation> {
  const known = snapshot.simulations?.get(candidates, solverOptions);
  if (known !== undefined) return known;
  const simulation = yield* simulateSteps(snapshot, candidates, solverOptions, due);
  snapshot.simulations?.set(candidates, solverOptions, simulation);
  return simulation;
}

function* simulateSteps(
  snapshot: DisruptionSnapshot,
  candidates: ReadonlySet<string>,
  solverOptions: SolverOptions | undefined,
  due: Due | undefined,
): Steps<Simulation> {
  const fromCandidates = new Set<Pod>();
  const fromDeleting = new Set<Pod>();
  // By name, the last piece of that name deciding, as a map of every piece would.
  const uninitialized = new Set<string>();
  const existing: ExistingCapacity[] = snapshot.capacity.map((c) => {
    if (c.initialized) uninitialized.delete(c.name);
    else uninitialized.add(c.name);
    const leaving = candidates.has(c.name);
    if (!leaving && !isDeletingCapacity(c, snapshot.markedForDeletion)) return c;
    for (const p of c.pods) if (isReschedulable(p)) (leaving ? fromCandidates : fromDeleting).add(p);
    return snapshot.solverCache === undefined
      ? { ...c, pods: c.pods.filter(stays), markedForDeletion: true }
      : snapshot.solverCache.marked(c, stays);
  });
  const input: SolverInput = {
    pods: [...snapshot.pendingPods, ...fromCandidates, ...fromDeleting],
    existing,
    daemonSets: snapshot.daemonSets,
    nodePools: snapshot.nodePools.filter(canProvision),
    instanceTypes: snapshot.instanceTypes,
    ...(snapshot.persistentVolumeClaims === undefined
      ? {}
      : { persistentVolumeClaims: snapshot.persistentVolumeClaims }),
    ...(snapshot.persistentVolumes === undefined ? {} : { persistentVolumes: snapshot.persistentVolumes }),
    ...(snapshot.storageClasses === undefined ? {} : { storageClasses: snapshot.storageClasses }),
    ...(snapshot.nodePoolUsage === undefined ? {} : { nodePoolUsage: snapshot.nodePoolUsage }),
    ...(snapshot.wellKnownLabels === undefined ? {} : { wellKnownLabels: snapshot.wellKnownLabels }),
    ...(solverOptions === undefined ? {} : { options: solverOptions }),
    ...(snapshot.solverCache === undefined ? {} : { cache: snapshot.solverCache }),
  };
  const result = yield* solveSteps(input, undefined, due);
  const failures: { pod: Pod; reason: string }[] = [];
  for (const u of result.unschedulable) {
    if (fromCandidates.has(u.pod) || fromDeleting.has(u.pod)) failures.push({ pod: u.pod, reason: u.reason });
  }
  const moves: Move[] = [];
  for (const placement of result.existing) {
    for (const pod of placement.pods) {
      if (fromCandidates.has(pod) && uninitialized.has(placement.name)) {
        failures.push({
          pod,
          reason: `would move to ${placement.name}, which is not initialized yet`,
        });
      } else if (fromCandidates.has(pod)) {
        moves.push({ pod, to: { node: placement.name } });
      }
    }
  }
  for (const [i, claim] of result.newClaims.entries()) {
    for (const pod of claim.pods) if (fromCandidates.has(pod)) moves.push({ pod, to: { replacement: i } });
  }
  return { failures, newClaims: result.newClaims, moves };
}

/** A pod that stays on a node taken away: one that would not be rescheduled (DaemonSet, static, done). */
function stays(pod: Pod): boolean {
  return !isReschedulable(pod);
}

/** `default/a: reason; default/b: reason`, at most three. */
export function describeFailures(failures: Simulation['failures']): string {
  const shown = failures.slice(0, 3).map((f) => `${podKey(f.pod)}: ${f.reason}`);
  return `${shown.join('; ')}${failures.length > 3 ? `; and ${failures.length - 3} more` : ''}`;
}
