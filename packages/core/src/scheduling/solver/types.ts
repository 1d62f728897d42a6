import type { DaemonSet } from '../../apis/kubernetes/daemon-set.js';
import type { Node } from '../../apis/kubernetes/node.js';
import type { PersistentVolume } from '../../apis/kubernetes/persistent-volume.js';
import type { PersistentVolumeClaim } from '../../apis/kubernetes/persistent-volume-claim.js';
import type { Pod } from '../../apis/kubernetes/pod.js';
import type { StorageClass } from '../../apis/kubernetes/storage-class.js';
import type { NodeClaim } from '../../apis/v1/nodeclaim.js';
import type { NodePool } from '../../apis/v1/nodepool.js';
import type { InstanceType } from '../../cloudprovider/instance-type.js';
import type { Requirements } from '../requirements/requirements.js';
import type { ResourceList } from '../resources/resource-list.js';
import type { SolverCache } from './solver-cache.js';

/**
 * Capacity that exists or is being launched: a registered Node (with or without a NodeClaim), or
 * an in-flight NodeClaim whose Node has not registered yet (then `node` is absent and its labels,
 * taints and allocatable come from the claim's spec and status).
 */
export interface ExistingCapacity {
  readonly name: string;
  readonly node?: Node;
  readonly nodeClaim?: NodeClaim;
  /** Pods bound to it (or nominated to it), DaemonSet pods included. */
  readonly pods: readonly Pod[];
  /** Initialized nodes are tried before uninitialized ones and in-flight claims. */
  readonly initialized: boolean;
  /** Being deleted or disrupted: takes no new pods, but its pods still count for topology. */
  readonly markedForDeletion?: boolean;
}

/** Everything one provisioning decision looks at; a snapshot, never mutated by the solver. */
export interface SolverInput {
  /** Pods to place. Pods already bound belong in `existing[].pods`. */
  readonly pods: readonly Pod[];
  readonly existing: readonly ExistingCapacity[];
  readonly daemonSets: readonly DaemonSet[];
  /** Ready NodePools; the solver orders them by weight (desc) then name. */
  readonly nodePools: readonly NodePool[];
  /** Every instance type each NodePool (by name) may launch, offerings included. */
  readonly instanceTypes: ReadonlyMap<string, readonly InstanceType[]>;
  readonly persistentVolumeClaims?: readonly PersistentVolumeClaim[];
  readonly persistentVolumes?: readonly PersistentVolume[];
  readonly storageClasses?: readonly StorageClass[];
  /**
   * Resources already used by each NodePool (existing nodes' capacity), counted against
   * `spec.limits`. `nodes` counts nodes.
   */
  readonly nodePoolUsage?: ReadonlyMap<string, ResourceList>;
  /**
   * Label keys well known beyond core's (the provider's `wellKnownLabels()`, or a catalog's):
   * pods may require them on NodePools that do not name them, and an instance type that does not
   * define one counts as `DoesNotExist` for it.
   */
  readonly wellKnownLabels?: ReadonlySet<string>;
  readonly options?: SolverOptions;
  /**
   * Work shared with earlier solves of the same caller (see SolverCache); a fresh one per solve
   * when absent. Never changes the result.
   */
  readonly cache?: SolverCache;
}

export interface SolverOptions {
  /** Instance types kept per new NodeClaim, cheapest first (Karpenter: 600). */
  readonly maxInstanceTypes?: number;
  /** minValues: Strict fails a claim that cannot meet them; BestEffort relaxes (Karpenter). */
  readonly minValuesPolicy?: 'Strict' | 'BestEffort';
  /** Ignore preferences entirely instead of relaxing them one by one (faster, fewer claims). */
  readonly ignorePreferences?: boolean;
  /**
   * Whether the last relaxation step tolerates PreferNoSchedule taints (default true). Until then
   * such taints keep pods off, as preferences are treated as requirements first.
   */
  readonly toleratePreferNoSchedule?: boolean;
  /**
   * After Karpenter's greedy pass, re-pack the NodeClaims that hold only unconstrained pods (no
   * topology, affinity or host ports, selected by no topology group) when that is cheaper
   * (default true). False reproduces Karpenter's placements exactly.
   */
  readonly repack?: boolean;
}

/** A NodeClaim the solver wants created. */
export interface NewClaim {
  readonly nodePool: string;
  /** Launchable types for the claim, cheapest compatible available offering first. */
  readonly instanceTypes: readonly InstanceType[];
  /**
   * The claim's requirements as they would appear in NodeClaim.spec: NodePool requirements
   * narrowed by its pods and topology, plus karpenter.sh/nodepool,
   * node.kubernetes.io/instance-type (the kept types) and karpenter.sh/capacity-type.
   */
  readonly requirements: Requirements;
  readonly pods: readonly Pod[];
  /** The pods' requests plus the DaemonSet overhead for this NodePool. */
  readonly requests: ResourceList;
  /** Cheapest available offering compatible with the claim, per hour. */
  readonly price: number;
}

/** Pods the solver places on capacity that exists or is in flight. */
export interface ExistingPlacement {
  readonly name: string;
  readonly pods: readonly Pod[];
}

export interface UnschedulablePod {
  readonly pod: Pod;
  /** Specific and actionable: which NodePool refused it, and why (see DESIGN principle 7). */
  readonly reason: string;
}

/**
 * A time budget for one solve, read through an injected clock so tests and simulations stay
 * exact: the solve stops placing pods once `elapsedMs() - (its value at the start) >= budgetMs`.
 */
export interface SolveDeadline {
  readonly budgetMs: number;
  /** Monotonic milliseconds (e.g. `performance.now`, or a fake clock). */
  readonly elapsedMs: () => number;
}

/** The reason of every pod a solve did not get to before its deadline. */
export const DeadlineExceededReason = 'scheduling deadline exceeded; retried next batch';

/** The decision: deterministic for a given input. */
export interface SolverResult {
  readonly newClaims: readonly NewClaim[];
  readonly existing: readonly ExistingPlacement[];
  readonly unschedulable: readonly UnschedulablePod[];
  /**
   * NodePools of the input that could launch nothing: none of their instance types is compatible
   * with their requirements and has an available offering they allow. Absent when there are none.
   */
  readonly noCompatibleTypes?: readonly string[];
}
