import { Counter, Histogram, type Registry } from 'prom-client';
import { durationMs } from '../apis/common/duration.js';
import { Annotations, Labels } from '../apis/labels.js';
import type { NodeClaim } from '../apis/v1/nodeclaim.js';
import { MetricNames } from '../metrics/names.js';
import { reuse } from '../operator/runtime/metrics.js';

/** Reasons of `karpenter_nodeclaims_disrupted_total` the lifecycle controllers report. */
export const DisruptionReasons = {
  InsufficientCapacity: 'insufficient_capacity',
  NodeClassNotReady: 'nodeclass_not_ready',
  LaunchTimeout: 'launch_timeout',
  RegistrationTimeout: 'registration_timeout',
  InitializationTimeout: 'initialization_timeout',
  Unhealthy: 'unhealthy',
  Expired: 'expired',
  GarbageCollected: 'garbage_collected',
} as const;

/** The labels Karpenter puts on its disrupted-claim and initiated-pod-disruption counters. */
type DisruptedLabel = 'reason' | 'nodepool' | 'capacity_type' | 'consolidation_policy' | 'termination_mode';
const DisruptedLabelNames: DisruptedLabel[] = [
  'reason',
  'nodepool',
  'capacity_type',
  'consolidation_policy',
  'termination_mode',
];

/** The NodeClaim and Node counters, with Karpenter's names and labels. */
export interface LifecycleMetrics {
  /** `{reason, nodepool, min_values_relaxed}`; the provisioner and disruption increment it via `nodeClaimCreated`. */
  readonly nodeClaimsCreated: Counter<'reason' | 'nodepool' | 'min_values_relaxed'>;
  readonly nodeClaimsTerminated: Counter<'nodepool' | 'capacity_type'>;
  /**
   * NodeClaims deleted by disruption, repair, expiry, interruption or a failed launch, by the
   * claim's labels plus `consolidation_policy` (consolidation only) and `termination_mode`.
   */
  readonly nodeClaimsDisrupted: Counter<DisruptedLabel>;
  /**
   * Reschedulable pods (not DaemonSet, not mirror) on NodeClaims disrupted by a disruption
   * command or node repair, by the claim's labels plus `consolidation_policy` (consolidation
   * only) and `termination_mode`.
   */
  readonly podsDisruptionInitiated: Counter<DisruptedLabel>;
  readonly nodesCreated: Counter<'nodepool'>;
  readonly nodesTerminated: Counter<'nodepool'>;
  /** Seconds from a Node's deletion request to the removal of its finalizer. */
  readonly nodesTerminationDuration: Histogram<'nodepool'>;
  /** Seconds from a Node's creation to the removal of its finalizer. */
  readonly nodesLifetimeDuration: Histogram<'nodepool'>;
  /** Nodes whose drain completed. */
  readonly nodesDrained: Counter<'nodepool'>;
  /**
   * Evictions asked of the API server, by the HTTP code it answered, under Karpenter's earlier
   * name; `podsEvictionRequests` is the same count under its current one.
   */
  readonly nodesEvictionRequests: Counter<'code'>;
  readonly podsEvictionRequests: Counter<'code'>;
  /** Pods drained from terminating nodes (evicted or deleted for the termination time), by the node's disruption reason. */
  readonly podsDrained: Counter<'reason'>;
  /** NodeClaims node repair deleted, by the unhealthy condition (snake case), pool, capacity type and image. */
  readonly nodeClaimsUnhealthyDisrupted: Counter<'condition' | 'nodepool' | 'capacity_type' | 'image_id'>;
  /** Seconds from a NodeClaim's deletion request to the removal of its finalizer. */
  readonly nodeClaimsTerminationDuration: Histogram<'nodepool'>;
  /** Seconds from the instance's termination request to the cloud reporting it gone. */
  readonly nodeClaimsInstanceTerminationDuration: Histogram<'nodepool'>;
}

/** Termination durations: seconds to an hour, as a drain or an instance shutdown takes. */
const TerminationBuckets = [
  1, 2, 5, 10, 20, 30, 45, 60, 90, 120, 180, 240, 300, 450, 600, 900, 1200, 1800, 3600,
];
/** Node lifetimes: minutes to 30 days. */
const LifetimeBuckets = [
  300, 900, 1800, 3600, 7200, 14_400, 28_800, 86_400, 172_800, 604_800, 1_209_600, 2_592_000,
];

/** The lifecycle counters in `registry` (reusing any already registered there). */
export function lifecycleMetrics(registry: Registry): LifecycleMetrics {
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    reuse(registry, name, () => new Counter<L>({ name, help, labelNames, registers: [registry] }));
  const histogram = (name: string, help: string, buckets: number[]) =>
    reuse(
      registry,
      name,
      () =>
        new Histogram<'nodepool'>({ name, help, labelNames: ['nodepool'], buckets, registers: [registry] }),
    );
  return {
    nodeClaimsCreated: counter(MetricNames.NodeClaimsCreated, 'Number of nodeclaims created in total.', [
      'reason',
      'nodepool',
      'min_values_relaxed',
    ]),
    nodeClaimsTerminated: counter(
      MetricNames.NodeClaimsTerminated,
      'Number of nodeclaims terminated in total.',
      ['nodepool', 'capacity_type'],
    ),
    nodeClaimsDisrupted: counter(
      MetricNames.NodeClaimsDisrupted,
      'Number of nodeclaims disrupted in total by nodewright. Labeled by reason the nodeclaim was disrupted, the owning nodepool, the capacity type, the consolidation policy, and the termination mode.',
      DisruptedLabelNames,
    ),
    podsDisruptionInitiated: counter(
      MetricNames.PodsDisruptionInitiated,
      'Number of pod disruptions initiated in total by nodewright, incremented by the reschedulable pod count whenever the underlying nodeclaim is disrupted. Labeled by reason the nodeclaim was disrupted, the owning nodepool, the capacity type, the consolidation policy, and the termination mode. Pods owned by DaemonSets and mirror pods are excluded.',
      DisruptedLabelNames,
    ),
    nodesCreated: counter(MetricNames.NodesCreated, 'Number of nodes created in total.', ['nodepool']),
    nodesTerminated: counter(MetricNames.NodesTerminated, 'Number of nodes terminated in total.', [
      'nodepool',
    ]),
    nodesTerminationDuration: histogram(
      MetricNames.NodesTerminationDuration,
      "The time taken between a node's deletion request and the removal of its finalizer",
      TerminationBuckets,
    ),
    nodesLifetimeDuration: histogram(
      MetricNames.NodesLifetimeDuration,
      'The lifetime duration of the nodes since creation.',
      LifetimeBuckets,
    ),
    nodesDrained: counter(MetricNames.NodesDrained, 'The total number of nodes drained.', ['nodepool']),
    nodesEvictionRequests: counter(
      MetricNames.NodesEvictionRequests,
      'The total number of eviction requests made.',
      ['code'],
    ),
    podsEvictionRequests: counter(
      MetricNames.PodsEvictionRequests,
      'The total number of pod eviction requests made by nodewright, labeled by response code',
      ['code'],
    ),
    podsDrained: counter(
      MetricNames.PodsDrained,
      'The total number of pods drained during node termination by nodewright, labeled by reason',
      ['reason'],
    ),
    nodeClaimsUnhealthyDisrupted: counter(
      MetricNames.NodeClaimsUnhealthyDisrupted,
      'Number of unhealthy nodeclaims disrupted in total by nodewright. Labeled by condition on the node was disrupted, the owning nodepool, and the image ID.',
      ['condition', 'nodepool', 'capacity_type', 'image_id'],
    ),
    nodeClaimsTerminationDuration: histogram(
      MetricNames.NodeClaimsTerminationDuration,
      'Duration of NodeClaim termination in seconds.',
      TerminationBuckets,
    ),
    nodeClaimsInstanceTerminationDuration: histogram(
      MetricNames.NodeClaimsInstanceTerminationDuration,
      'Duration of CloudProvider Instance termination in seconds.',
      TerminationBuckets,
    ),
  };
}

/** The `nodepool` and `capacity_type` labels of a claim (empty when unknown, as Karpenter reports). */
export function claimLabels(claim: Pick<NodeClaim, 'metadata'>): { nodepool: string; capacity_type: string } {
  return {
    nodepool: claim.metadata.labels?.[Labels.NodePool] ?? '',
    capacity_type: claim.metadata.labels?.[Labels.CapacityType] ?? '',
  };
}

/**
 * The hook the provisioner (reason `provisioning`) and disruption (reason `disruption`) call after
 * creating a NodeClaim.
 */
export function recordNodeClaimCreated(metrics: LifecycleMetrics, claim: NodeClaim, reason: string): void {
  metrics.nodeClaimsCreated.inc({
    reason,
    nodepool: claim.metadata.labels?.[Labels.NodePool] ?? '',
    min_values_relaxed: String(
      claim.metadata.annotations?.[Annotations.NodeClaimMinValuesRelaxed] === 'true',
    ),
  });
}

/**
 * The labels of a disrupted claim's series. `consolidationPolicy` is the NodePool's, for
 * consolidation; empty for other reasons, as Karpenter labels them.
 */
function disruptedLabels(
  claim: NodeClaim,
  reason: string,
  consolidationPolicy: string,
): Record<DisruptedLabel, string> {
  return {
    reason,
    ...claimLabels(claim),
    consolidation_policy: consolidationPolicy,
    termination_mode: terminationMode(claim),
  };
}

/** Counts a NodeClaim deleted by a lifecycle or disruption controller (`karpenter_nodeclaims_disrupted_total`). */
export function recordNodeClaimDisrupted(
  metrics: LifecycleMetrics,
  claim: NodeClaim,
  reason: string,
  consolidationPolicy = '',
): void {
  metrics.nodeClaimsDisrupted.inc(disruptedLabels(claim, reason, consolidationPolicy));
}

/**
 * Counts the reschedulable pods of a NodeClaim a disruption command or node repair is about to
 * delete (`karpenter_pods_disruption_initiated_total`), under the claim's disrupted labels.
 */
export function recordPodsDisruptionInitiated(
  metrics: LifecycleMetrics,
  claim: NodeClaim,
  reason: string,
  pods: number,
  consolidationPolicy = '',
): void {
  metrics.podsDisruptionInitiated.inc(disruptedLabels(claim, reason, consolidationPolicy), pods);
}

/**
 * Karpenter's termination mode of a claim, by its terminationGracePeriod: none is graceful
 * (PDBs and do-not-disrupt hold), zero or less forceful, more eventual. A period that does not
 * parse is counted as eventual: the claim asked for a bound, just not one we can read.
 */
export function terminationMode(claim: NodeClaim): 'graceful' | 'eventual' | 'forceful' {
  const period = claim.spec.terminationGracePeriod;
  if (period === undefined) return 'graceful';
  const ms = durationMs(period);
  return ms !== undefined && ms <= 0 ? 'forceful' : 'eventual';
}

/** Observes the seconds from `since` (an RFC 3339 timestamp) to `nowMs`; nothing when unset or unreadable. */
export function observeSince(
  histogram: Histogram<'nodepool'>,
  nodepool: string,
  since: string | undefined,
  nowMs: number,
): void {
  const at = Date.parse(since ?? '');
  if (!Number.isNaN(at)) histogram.observe({ nodepool }, Math.max(0, (nowMs - at) / 1_000));
}
