import type { Node } from '../apis/kubernetes/node.js';
import { Labels, WellKnownLabels } from '../apis/labels.js';

/**
 * Karpenter's metric label for a well-known node label: the part after the slash, lower case,
 * `-` as `_` (`topology.kubernetes.io/zone` -> `zone`, `karpenter.sh/capacity-type` ->
 * `capacity_type`).
 */
export function metricLabelFor(nodeLabel: string): string {
  const name = nodeLabel.slice(nodeLabel.indexOf('/') + 1);
  return name.toLowerCase().replaceAll('-', '_');
}

/** A resource name as a `resource_type` value: lower case, `-` as `_` (`ephemeral-storage` -> `ephemeral_storage`). */
export function resourceTypeLabel(resource: string): string {
  return resource.toLowerCase().replaceAll('-', '_');
}

const WELL_KNOWN = [...WellKnownLabels].sort();

/**
 * The labels of every `karpenter_nodes_*` series: the well-known labels, node_name, phase,
 * managed, resource_type.
 */
export const NodeLabelNames = [
  ...WELL_KNOWN.map(metricLabelFor),
  'node_name',
  'phase',
  'managed',
  'resource_type',
] as const;

/**
 * The labels of `karpenter_pods_state`, as Karpenter's pod metrics controller sets them now
 * (`scheduled`, `true` when the pod has a node, is its newest).
 */
export const PodLabelNames = [
  'name',
  'namespace',
  'owner',
  'node',
  'scheduled',
  'nodepool',
  'zone',
  'arch',
  'capacity_type',
  'instance_type',
  'phase',
  'ready',
  'managed',
] as const;

/** The labels of `karpenter_nodepools_usage` and `karpenter_nodepools_limit`. */
export const NodePoolLabelNames = ['nodepool', 'resource_type'] as const;

/**
 * Whether nodewright manages a node, for the `managed` label: it belongs to a NodePool. Karpenter
 * asks whether a NodeClaim backs the node; every NodeClaim's Node carries its pool's label, and
 * no other Node does.
 */
export function isManagedNode(node: Pick<Node, 'metadata'> | undefined): boolean {
  return (node?.metadata.labels?.[Labels.NodePool] ?? '') !== '';
}

/**
 * A node's well-known labels under their metric names (empty when unset), its name, its phase
 * (deprecated in Kubernetes and usually empty, reported as Karpenter does) and `managed`.
 */
export function nodeMetricLabels(node: Pick<Node, 'metadata' | 'status'>): Record<string, string> {
  const labels = node.metadata.labels ?? {};
  const out: Record<string, string> = {};
  for (const key of WELL_KNOWN) out[metricLabelFor(key)] = labels[key] ?? '';
  out.node_name = node.metadata.name ?? '';
  out.phase = node.status?.phase ?? '';
  out.managed = String(isManagedNode(node));
  return out;
}

/**
 * The node-derived labels of a pod's series; empty when unset or when the node is unknown, as
 * Karpenter reports them since its metric store (it wrote `N/A` before), and `managed`.
 */
export function podNodeLabels(
  node: Pick<Node, 'metadata'> | undefined,
): Record<'nodepool' | 'zone' | 'arch' | 'capacity_type' | 'instance_type' | 'managed', string> {
  const labels = node?.metadata.labels;
  const read = (key: string) => labels?.[key] ?? '';
  return {
    nodepool: read(Labels.NodePool),
    zone: read(Labels.Zone),
    arch: read(Labels.Arch),
    capacity_type: read(Labels.CapacityType),
    instance_type: read(Labels.InstanceType),
    managed: String(isManagedNode(node)),
  };
}
