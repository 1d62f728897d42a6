import type { DaemonSet } from '../../apis/kubernetes/daemon-set.js';
import type { PersistentVolume } from '../../apis/kubernetes/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../apis/kubernetes/persistent-volume-claim.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { PodDisruptionBudget } from '../../apis/kubernetes/pod-disruption-budget.js';
import type { StorageClass } from '../../apis/kubernetes/storage-class.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import type { Clock } from '../../clock/clock.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import type { ResourceList } from '../../scheduling/resources/resource-list.js';
import type { SolverCache } from '../../scheduling/solver/solver-cache.js';
import type { ExistingCapacity, SolverInput, SolverOptions } from '../../scheduling/solver/types.js';
import type { NodeDriftMemo } from './candidates/drift.js';
import type { ManagedNodeMemo } from './candidates/managed-node.js';
import type { NodeFactsMemo } from './candidates/node-facts.js';
import type { NodePriceMemo } from './candidates/node-price.js';
import type { NodeRoom } from './methods/node-room.js';
import {
  MultiNodeConsolidationTimeoutMs,
  SingleNodeConsolidationTimeoutMs,
} from './methods/search-budget.js';
import type { SimulationMemo } from './simulation/simulation-memo.js';

/**
 * Everything one disruption pass looks at; never mutated. The cluster is described the way the
 * solver takes it (ExistingCapacity: Node, NodeClaim, bound pods, initialized), so the same
 * state that feeds provisioning feeds disruption.
 */
export interface DisruptionSnapshot {
  /**
   * Every Node (with its NodeClaim, if any) and in-flight NodeClaim, with the pods bound to it
   * (DaemonSet pods included). A pod listed without `spec.nodeName` is a pending pod nominated
   * to that node. Managed nodes are those whose Node (or NodeClaim) has `karpenter.sh/nodepool`.
   */
  readonly capacity: readonly ExistingCapacity[];
  /** Pods waiting for a node: they compete for the room that moved pods would take. */
  readonly pendingPods: readonly Pod[];
  /** Every NodePool, including ones that cannot launch nodes now (their nodes are still judged). */
  readonly nodePools: readonly NodePool[];
  /** Instance types per NodePool name, offerings included; node prices come from here. */
  readonly instanceTypes: ReadonlyMap<string, readonly InstanceType[]>;
  readonly daemonSets: readonly DaemonSet[];
  /**
   * policy/v1 PDBs. `status.disruptionsAllowed` is used where present; otherwise it is computed
   * from the snapshot's pods (a controller's replicas taken as its pods in the snapshot).
   */
  readonly podDisruptionBudgets: readonly PodDisruptionBudget[];
  readonly persistentVolumeClaims?: readonly PersistentVolumeClaim[];
  readonly persistentVolumes?: readonly PersistentVolume[];
  readonly storageClasses?: readonly StorageClass[];
  /** Resources each NodePool uses now, for `spec.limits` on replacements (see SolverInput). */
  readonly nodePoolUsage?: ReadonlyMap<string, ResourceList>;
  /**
   * Nodes (or NodeClaims) an earlier command is already disrupting but that are not deleted or
   * tainted yet: they count as deleting.
   */
  readonly markedForDeletion?: ReadonlySet<string>;
  /** The provider's or catalog's well-known labels, for the solver (see SolverInput). */
  readonly wellKnownLabels?: ReadonlySet<string>;
  /** Shared by the pass's solves and with earlier passes' (see SolverCache); results are the same without. */
  readonly solverCache?: SolverCache;
  /**
   * Simulations already run over a snapshot of this very content (see SimulationMemo); results
   * are the same without. Only for a snapshot exactly as the cluster is: never one with
   * candidates' taints lifted for re-validation.
   */
  readonly simulations?: SimulationMemo;
  /** Managed nodes kept between passes (see ManagedNodeMemo); results are the same without. */
  readonly managedNodes?: ManagedNodeMemo;
  /** Node prices kept between passes (see NodePriceMemo); results are the same without. */
  readonly nodePrices?: NodePriceMemo;
  /** Drift verdicts kept between passes (see NodeDriftMemo); results are the same without. */
  readonly nodeDrift?: NodeDriftMemo;
  /** Node facts and PDB matches kept between passes (see NodeFactsMemo); results are the same without. */
  readonly nodeFacts?: NodeFactsMemo;
  /**
   * The room on this snapshot's nodes and the screens asked of it (see NodeRoom), kept with the
   * snapshot by whoever reuses it for another pass; results are the same without.
   */
  readonly room?: NodeRoom;
}

/**
 * The disruption snapshot of a provisioning snapshot: the same capacity, pending pods,
 * DaemonSets, volumes and usage, plus what only disruption needs — every NodePool (the
 * provisioning input holds only those that can launch) and the PDBs. Instance types default to
 * the input's; pass them for NodePools the input left out, so their nodes can be priced.
 */
export function disruptionSnapshotOf(
  input: SolverInput,
  extra: {
    readonly nodePools: readonly NodePool[];
    readonly podDisruptionBudgets: readonly PodDisruptionBudget[];
    readonly instanceTypes?: ReadonlyMap<string, readonly InstanceType[]>;
  },
): DisruptionSnapshot {
  return {
    capacity: input.existing,
    pendingPods: input.pods,
    nodePools: extra.nodePools,
    instanceTypes: extra.instanceTypes ?? input.instanceTypes,
    daemonSets: input.daemonSets,
    podDisruptionBudgets: extra.podDisruptionBudgets,
    ...(input.persistentVolumeClaims === undefined
      ? {}
      : { persistentVolumeClaims: input.persistentVolumeClaims }),
    ...(input.persistentVolumes === undefined ? {} : { persistentVolumes: input.persistentVolumes }),
    ...(input.storageClasses === undefined ? {} : { storageClasses: input.storageClasses }),
    ...(input.nodePoolUsage === undefined ? {} : { nodePoolUsage: input.nodePoolUsage }),
    ...(input.wellKnownLabels === undefined ? {} : { wellKnownLabels: input.wellKnownLabels }),
  };
}

/** Knobs of a pass; every one has Karpenter's default. */
export interface DisruptionOptions {
  /**
   * Whether spot nodes may be replaced by cheaper spot nodes (with at least 15 cheaper types for
   * a single node). Upstream gates this behind a feature flag that is off by default; nodewright
   * enables it by default. Default true.
   */
  readonly spotToSpotConsolidation?: boolean;
  /** Candidates multi-node consolidation considers at once. Default 100. */
  readonly maxMultiNodeCandidates?: number;
  /** Passed to every rescheduling simulation. */
  readonly solverOptions?: SolverOptions;
  /**
   * How consolidation treats soft scheduling constraints (ScheduleAnyway spread, preferred
   * (anti-)affinity, PreferNoSchedule taints) of the pods it moves. `Respect` (upstream) holds
   * them as requirements, so a soft zone spread can split moved pods over several new NodeClaims
   * and block the consolidation (aws/karpenter-provider-aws#4907). `RelaxWhenBlocking` first
   * tries with them and, only when that finds no command, again without them: kube-scheduler
   * only scores them, so the moved pods still schedule. Default `RelaxWhenBlocking`.
   */
  readonly consolidationPreferences?: 'Respect' | 'RelaxWhenBlocking';
  /**
   * What consolidation's time budgets are measured on (the controller's clock; the CLI's wall
   * clock). Without it the searches are unbounded and a pass depends on its snapshot alone.
   */
  readonly searchClock?: Clock;
  /**
   * Multi-node consolidation stops its search once this has passed since it started and keeps
   * the largest set found so far. Default 60 000 (upstream's one minute).
   */
  readonly multiNodeConsolidationTimeoutMs?: number;
  /**
   * Single-node consolidation stops trying candidates once this has passed since it started.
   * Default 180 000 (upstream's three minutes).
   */
  readonly singleNodeConsolidationTimeoutMs?: number;
  /**
   * Monotonic milliseconds, read only to report how long each method took to decide
   * (`DisruptionResult.evaluated`), never to decide anything.
   */
  readonly elapsedMs?: () => number;
}

/** Options with defaults filled in. */
export interface ResolvedDisruptionOptions {
  readonly spotToSpotConsolidation: boolean;
  readonly maxMultiNodeCandidates: number;
  readonly solverOptions: SolverOptions | undefined;
  readonly consolidationPreferences: 'Respect' | 'RelaxWhenBlocking';
  readonly searchClock: Clock | undefined;
  readonly multiNodeConsolidationTimeoutMs: number;
  readonly singleNodeConsolidationTimeoutMs: number;
}

export function resolveDisruptionOptions(o: DisruptionOptions | undefined): ResolvedDisruptionOptions {
  return {
    spotToSpotConsolidation: o?.spotToSpotConsolidation ?? true,
    maxMultiNodeCandidates: o?.maxMultiNodeCandidates ?? 100,
    solverOptions: o?.solverOptions,
    consolidationPreferences: o?.consolidationPreferences ?? 'RelaxWhenBlocking',
    searchClock: o?.searchClock,
    multiNodeConsolidationTimeoutMs: o?.multiNodeConsolidationTimeoutMs ?? MultiNodeConsolidationTimeoutMs,
    singleNodeConsolidationTimeoutMs: o?.singleNodeConsolidationTimeoutMs ?? SingleNodeConsolidationTimeoutMs,
  };
}
