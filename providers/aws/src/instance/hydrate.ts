import { Labels, type NodeClaim, NodeClaimApiVersion } from '@nodewright/core/apis';
import type { InstanceType } from '@nodewright/core/cloudprovider';
import { formatTime } from '@nodewright/core/kube';
import { formatResourceList } from '@nodewright/core/scheduling';
import { EC2NodeClassAnnotations, EC2NodeClassGroup, EC2NodeClassHashVersion } from '../apis/index.js';
import { TagKeys } from '../launch/tags.js';
import { type AwsInstance, archLabel } from './aws-instance.js';
import { formatProviderID } from './provider-id.js';

/** `topology.k8s.aws/zone-id`: the zone's account-independent id. */
export const ZoneIdLabel = 'topology.k8s.aws/zone-id';

/** Where and how an instance runs, as create learned it. */
export interface LaunchFacts {
  readonly instanceId: string;
  readonly instanceTypeName: string;
  /** The catalog entry, for capacity, allocatable and the type's labels; absent if unknown. */
  readonly instanceType: InstanceType | undefined;
  readonly zone: string;
  readonly zoneId: string | undefined;
  readonly capacityType: string;
  readonly imageId: string | undefined;
  /** The EC2NodeClass hash now, stamped so static drift can be told later. */
  readonly nodeClassHash: string;
}

/**
 * The NodeClaim create returns: providerID `aws:///<zone>/<id>`, labels of the instance type
 * (instance-type, arch, os and the karpenter.k8s.aws ones) with the zone, zone id and capacity
 * type, capacity and allocatable of the type, the image, and the EC2NodeClass hash annotations.
 * The claim's own labels win, so nothing the NodePool set is overwritten.
 */
export function hydrateNodeClaim(claim: NodeClaim, facts: LaunchFacts): NodeClaim {
  const out = structuredClone(claim);
  out.metadata.labels = {
    ...facts.instanceType?.requirements.labels(),
    [Labels.InstanceType]: facts.instanceTypeName,
    [Labels.Zone]: facts.zone,
    [Labels.CapacityType]: facts.capacityType,
    ...(facts.zoneId !== undefined ? { [ZoneIdLabel]: facts.zoneId } : {}),
    ...claim.metadata.labels,
  };
  out.metadata.annotations = {
    ...claim.metadata.annotations,
    [EC2NodeClassAnnotations.Hash]: facts.nodeClassHash,
    [EC2NodeClassAnnotations.HashVersion]: EC2NodeClassHashVersion,
  };
  out.status = {
    ...out.status,
    providerID: formatProviderID(facts.zone, facts.instanceId),
    ...(facts.imageId ? { imageID: facts.imageId } : {}),
    ...(facts.instanceType !== undefined
      ? {
          capacity: formatResourceList(facts.instanceType.capacity),
          allocatable: formatResourceList(facts.instanceType.allocatable),
        }
      : {}),
  };
  return out;
}

/**
 * The NodeClaim view of an instance for get and list: named by its NodeClaim tag (else its
 * id), labelled with NodePool, type, zone, capacity type and arch from EC2, referring to the
 * EC2NodeClass of its tag, and marked deleting once the instance shuts down.
 */
export function nodeClaimFromInstance(instance: AwsInstance): NodeClaim {
  const arch = archLabel(instance.architecture);
  const pool = instance.tags[TagKeys.NodePool];
  const claim: NodeClaim = {
    apiVersion: NodeClaimApiVersion,
    kind: 'NodeClaim',
    metadata: {
      name: instance.tags[TagKeys.NodeClaim] ?? instance.id,
      labels: {
        ...(pool !== undefined ? { [Labels.NodePool]: pool } : {}),
        [Labels.InstanceType]: instance.instanceType,
        [Labels.Zone]: instance.zone,
        [Labels.CapacityType]: instance.capacityType,
        ...(arch !== undefined ? { [Labels.Arch]: arch } : {}),
      },
      ...(instance.launchTime !== undefined ? { creationTimestamp: formatTime(instance.launchTime) } : {}),
    },
    spec: {
      requirements: [],
      nodeClassRef: {
        group: EC2NodeClassGroup,
        kind: 'EC2NodeClass',
        name: instance.tags[TagKeys.EC2NodeClass] ?? '',
      },
      expireAfter: '720h',
    },
    status: {
      providerID: formatProviderID(instance.zone, instance.id),
      ...(instance.imageId !== undefined ? { imageID: instance.imageId } : {}),
    },
  } as NodeClaim;
  if (instance.state === 'shutting-down' || instance.state === 'terminated') {
    claim.metadata.deletionTimestamp = formatTime(instance.launchTime ?? 0);
  }
  return claim;
}
