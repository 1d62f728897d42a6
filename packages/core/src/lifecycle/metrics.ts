import { Counter, type Registry } from 'prom-client';
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

/** The NodeClaim and Node counters, with Karpenter's names and labels. */
export interface LifecycleMetrics {
  /** `{reason, nodepool, min_values_relaxed}`; the provisioner and disruption increment it via `nodeClaimCreated`. */
  readonly nodeClaimsCreated: Counter<'reason' | 'nodepool' | 'min_values_relaxed'>;
  readonly nodeClaimsTerminated: Counter<'nodepool' | 'capacity_type'>;
  readonly nodeClaimsDisrupted: Counter<'reason' | 'nodepool' | 'capacity_type'>;
  readonly nodesCreated: Counter<'nodepool'>;
  readonly nodesTerminated: Counter<'nodepool'>;
}

/** The lifecycle counters in `registry` (reusing any already registered there). */
export function lifecycleMetrics(registry: Registry): LifecycleMetrics {
  const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
    reuse(registry, name, () => new Counter<L>({ name, help, labelNames, registers: [registry] }));
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
      'Number of nodeclaims disrupted in total.',
      ['reason', 'nodepool', 'capacity_type'],
    ),
    nodesCreated: counter(MetricNames.NodesCreated, 'Number of nodes created in total.', ['nodepool']),
    nodesTerminated: counter(MetricNames.NodesTerminated, 'Number of nodes terminated in total.', [
      'nodepool',
    ]),
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

/** Counts a NodeClaim deleted by a lifecycle controller. */
export function recordNodeClaimDisrupted(metrics: LifecycleMetrics, claim: NodeClaim, reason: string): void {
  metrics.nodeClaimsDisrupted.inc({ reason, ...claimLabels(claim) });
}
