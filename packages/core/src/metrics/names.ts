/**
 * Metric names, as Karpenter spells them (namespace `karpenter`), so dashboards and alerts
 * written for Karpenter keep working. One place, so a rename is impossible to miss.
 */

export const MetricNames = {
  NodesCreated: 'karpenter_nodes_created_total',
  NodesTerminated: 'karpenter_nodes_terminated_total',
  NodesTerminationDuration: 'karpenter_nodes_termination_duration_seconds',
  NodesLifetimeDuration: 'karpenter_nodes_lifetime_duration_seconds',
  NodesDrained: 'karpenter_nodes_drained_total',
  NodesEvictionRequests: 'karpenter_nodes_eviction_requests_total',
  NodeClaimsTerminationDuration: 'karpenter_nodeclaims_termination_duration_seconds',
  NodeClaimsInstanceTerminationDuration: 'karpenter_nodeclaims_instance_termination_duration_seconds',
  NodesAllocatable: 'karpenter_nodes_allocatable',
  NodesTotalPodRequests: 'karpenter_nodes_total_pod_requests',
  NodesTotalPodLimits: 'karpenter_nodes_total_pod_limits',
  NodesTotalDaemonRequests: 'karpenter_nodes_total_daemon_requests',
  NodesTotalDaemonLimits: 'karpenter_nodes_total_daemon_limits',
  NodesSystemOverhead: 'karpenter_nodes_system_overhead',
  NodeClaimsCreated: 'karpenter_nodeclaims_created_total',
  NodeClaimsDisrupted: 'karpenter_nodeclaims_disrupted_total',
  NodeClaimsTerminated: 'karpenter_nodeclaims_terminated_total',
  NodePoolsUsage: 'karpenter_nodepools_usage',
  NodePoolsLimit: 'karpenter_nodepools_limit',
  NodePoolsAllowedDisruptions: 'karpenter_nodepools_allowed_disruptions',
  PodsState: 'karpenter_pods_state',
  PodsStartupDuration: 'karpenter_pods_startup_duration_seconds',
  SchedulerSchedulingDuration: 'karpenter_scheduler_scheduling_duration_seconds',
  SchedulerQueueDepth: 'karpenter_scheduler_queue_depth',
  SchedulerUnschedulablePods: 'karpenter_scheduler_unschedulable_pods_count',
  VoluntaryDisruptionDecisions: 'karpenter_voluntary_disruption_decisions_total',
  VoluntaryDisruptionEligibleNodes: 'karpenter_voluntary_disruption_eligible_nodes',
  VoluntaryDisruptionConsolidationTimeouts: 'karpenter_voluntary_disruption_consolidation_timeouts_total',
  CloudProviderDuration: 'karpenter_cloudprovider_duration_seconds',
  CloudProviderErrors: 'karpenter_cloudprovider_errors_total',
  ClusterStateNodeCount: 'karpenter_cluster_state_node_count',
  ClusterUtilization: 'karpenter_cluster_utilization_percent',
} as const;
