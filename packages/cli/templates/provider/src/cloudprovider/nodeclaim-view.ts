import { Labels, type NodeClaim, NodeClaimApiVersion } from '@nodewright/core/apis';
import type { InstanceType } from '@nodewright/core/cloudprovider';
import { formatResourceList } from '@nodewright/core/scheduling';
import { NodeClassGroup, NodeClassKindName } from '../apis/nodeclass.js';
import { providerIDOf, type WireInstance } from '../cloud/wire.js';

/** Annotations and tags the provider writes. */
export const ProviderKeys = {
  /** On NodeClaims: the NodeClass hash at launch (drift). */
  NodeClassHash: 'acme.example.com/nodeclass-hash',
  /** Instance tags: the NodeClaim and NodeClass an instance was launched for. */
  NodeClaimTag: 'acme.example.com/nodeclaim',
  NodeClassTag: 'acme.example.com/nodeclass',
} as const;

/** The labels a launched instance's NodeClaim (and Node) carries. */
export function instanceLabels(
  instance: WireInstance,
  type: InstanceType | undefined,
  own: Readonly<Record<string, string>> = {},
): Record<string, string> {
  return {
    ...own,
    ...(type?.requirements.labels() ?? {}),
    [Labels.InstanceType]: instance.instanceType,
    [Labels.Zone]: instance.zone,
    [Labels.CapacityType]: instance.capacityType,
  };
}

/**
 * The NodeClaim as `create` returns it: the claim with the resolved labels, the hash annotation,
 * providerID, imageID and the instance type's capacity and allocatable.
 */
export function hydratedClaim(
  nodeClaim: NodeClaim,
  instance: WireInstance,
  type: InstanceType | undefined,
): NodeClaim {
  const out = structuredClone(nodeClaim);
  out.metadata.labels = instanceLabels(instance, type, out.metadata.labels);
  out.metadata.annotations = {
    ...(out.metadata.annotations ?? {}),
    [ProviderKeys.NodeClassHash]: instance.nodeClassHash,
  };
  out.status = { ...(out.status ?? {}), ...statusOf(instance, type) };
  return out;
}

/**
 * The NodeClaim view of an instance for `get` and `list` (garbage collection reads the name,
 * the launch time and the providerID): what the cloud knows, without the claim.
 */
export function nodeClaimView(instance: WireInstance, type: InstanceType | undefined): NodeClaim {
  const labels = instanceLabels(instance, type);
  const requirements = [Labels.InstanceType, Labels.Zone, Labels.CapacityType].map((key) => ({
    key,
    operator: 'In' as const,
    values: [labels[key] ?? ''],
  }));
  return {
    apiVersion: NodeClaimApiVersion,
    kind: 'NodeClaim',
    metadata: {
      name: instance.tags[ProviderKeys.NodeClaimTag] ?? instance.clientToken,
      labels,
      annotations: { [ProviderKeys.NodeClassHash]: instance.nodeClassHash },
      creationTimestamp: instance.launchTime,
    },
    spec: {
      requirements,
      nodeClassRef: {
        group: NodeClassGroup,
        kind: NodeClassKindName,
        name: instance.tags[ProviderKeys.NodeClassTag] ?? '',
      },
      expireAfter: '720h',
    },
    status: statusOf(instance, type),
  };
}

function statusOf(instance: WireInstance, type: InstanceType | undefined): NonNullable<NodeClaim['status']> {
  return {
    providerID: providerIDOf(instance),
    imageID: instance.image,
    ...(type === undefined
      ? {}
      : { capacity: formatResourceList(type.capacity), allocatable: formatResourceList(type.allocatable) }),
  };
}
