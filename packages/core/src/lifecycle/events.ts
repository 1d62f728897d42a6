/**
 * Reasons of the events the lifecycle controllers publish, in one place so users can filter on
 * them (`kubectl get events --field-selector reason=FailedDraining`).
 */
export const EventReasons = {
  /** NodeClaim: the cloud had no capacity for any allowed offering; the claim is deleted. */
  InsufficientCapacity: 'InsufficientCapacityError',
  /** NodeClaim, NodePool: the NodeClass is missing or not Ready; the claim is deleted. */
  NodeClassNotReady: 'NodeClassNotReady',
  /** NodeClaim: CloudProvider.create failed; retried. */
  LaunchFailed: 'LaunchFailed',
  /** NodeClaim: an instance was launched. */
  Launched: 'Launched',
  /** NodeClaim: its Node registered. */
  Registered: 'Registered',
  /** NodeClaim: the Node registered without the karpenter.sh/unregistered taint. */
  UnregisteredTaintMissing: 'UnregisteredTaintMissing',
  /** NodeClaim: the Node is Ready, startup taints are gone, resources are registered. */
  Initialized: 'Initialized',
  /** NodeClaim: not launched or not registered in time; deleted. */
  LivenessTimeout: 'LivenessTimeout',
  /** NodeClaim, Node: deletion will force pods off at this time. */
  TerminationGracePeriodExpiring: 'TerminationGracePeriodExpiring',
  /** NodeClaim: past creation + expireAfter; deleted. */
  Expired: 'Expired',
  /** NodeClaim: it no longer matches its NodePool or NodeClass; disruption replaces it within budgets. */
  Drifted: 'Drifted',
  /** NodeClaim, Node: a repair policy's condition held past its toleration; the claim is deleted. */
  NodeRepair: 'NodeRepair',
  /** Node: it needs repair, but too much of its NodePool is unhealthy to repair any. */
  NodeRepairBlocked: 'NodeRepairBlocked',
  /** NodeClaim: its instance is gone; deleted. */
  GarbageCollected: 'GarbageCollected',
  /** Node: pods are still waiting to be evicted (with the blocking pod and PDB when one refuses). */
  FailedDraining: 'FailedDraining',
  /** Pod: an eviction was refused by a PodDisruptionBudget. */
  EvictionBlocked: 'EvictionBlocked',
  /** Pod: evicted through the Eviction API. */
  Evicted: 'Evicted',
  /** Pod: deleted, bypassing PDBs and do-not-disrupt, to finish before the termination time. */
  Disrupted: 'Disrupted',
  /** Node: VolumeAttachments still exist. */
  AwaitingVolumeDetachment: 'AwaitingVolumeDetachment',
} as const;
