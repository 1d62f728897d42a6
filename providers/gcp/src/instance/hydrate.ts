import { CapacityTypes, Labels, type NodeClaim, NodeClaimApiVersion } from '@nodewright/core/apis';
import type { InstanceType } from '@nodewright/core/cloudprovider';
import { formatTime } from '@nodewright/core/kube';
import { formatResourceList } from '@nodewright/core/scheduling';
import {
  GCENodeClassAnnotations,
  GCENodeClassGroup,
  GCENodeClassHashVersion,
  GCENodeClassKind,
} from '../apis/index.js';
import { InstanceLabelKeys } from '../launch/gce-labels.js';
import { ImageMetadataKey, KubernetesVersionMetadataKey } from '../launch/metadata.js';
import type { GceInstanceRecord } from '../sdk/compute-api.js';
import { formatProviderID } from './provider-id.js';

const last = (url: string | null | undefined) => (url ?? '').slice((url ?? '').lastIndexOf('/') + 1);

/** The capacity type of an instance: spot for SPOT (or legacy preemptible), else on-demand. */
export function capacityTypeOf(record: GceInstanceRecord): string {
  return record.scheduling?.provisioningModel === 'SPOT' ? CapacityTypes.Spot : CapacityTypes.OnDemand;
}

/** What create learned about the instance it launched. */
export interface LaunchFacts {
  readonly project: string;
  readonly name: string;
  readonly zone: string;
  readonly capacityType: string;
  readonly instanceTypeName: string;
  readonly instanceType: InstanceType | undefined;
  readonly image: string | undefined;
  readonly nodeClassHash: string;
}

/**
 * The NodeClaim create returns: providerID `gce://<project>/<zone>/<name>`, the type's labels with
 * zone and capacity type, capacity and allocatable, the image, and the GCENodeClass hash
 * annotations. The claim's own labels win.
 */
export function hydrateNodeClaim(claim: NodeClaim, facts: LaunchFacts): NodeClaim {
  const out = structuredClone(claim);
  out.metadata.labels = {
    ...facts.instanceType?.requirements.labels(),
    [Labels.InstanceType]: facts.instanceTypeName,
    [Labels.Zone]: facts.zone,
    [Labels.CapacityType]: facts.capacityType,
    ...claim.metadata.labels,
  };
  out.metadata.annotations = {
    ...claim.metadata.annotations,
    [GCENodeClassAnnotations.Hash]: facts.nodeClassHash,
    [GCENodeClassAnnotations.HashVersion]: GCENodeClassHashVersion,
  };
  out.status = {
    ...out.status,
    providerID: formatProviderID(facts),
    ...(facts.image ? { imageID: facts.image } : {}),
    ...(facts.instanceType !== undefined
      ? {
          capacity: formatResourceList(facts.instanceType.capacity),
          allocatable: formatResourceList(facts.instanceType.allocatable),
        }
      : {}),
  };
  return out;
}

/** The Kubernetes version the instance was launched for, when it was recorded. */
export function instanceKubernetesVersion(record: GceInstanceRecord): string | undefined {
  return record.metadata?.items?.find((i) => i.key === KubernetesVersionMetadataKey)?.value ?? undefined;
}

/** The boot disk's image as the instance reports it, when it does. */
export function instanceImage(record: GceInstanceRecord): string | undefined {
  return record.metadata?.items?.find((i) => i.key === ImageMetadataKey)?.value ?? undefined;
}

/**
 * The NodeClaim view of an instance for get and list: named by its NodeClaim label, labelled
 * with NodePool, type, zone and capacity type, referring to the GCENodeClass of its label, and
 * marked deleting once the instance stops.
 */
export function nodeClaimFromInstance(record: GceInstanceRecord, project: string): NodeClaim {
  const labels = record.labels ?? {};
  const zone = last(record.zone);
  const name = record.name ?? '';
  const pool = labels[InstanceLabelKeys.NodePool];
  const created = record.creationTimestamp ? Date.parse(record.creationTimestamp) : undefined;
  const claim = {
    apiVersion: NodeClaimApiVersion,
    kind: 'NodeClaim',
    metadata: {
      name: labels[InstanceLabelKeys.NodeClaim] ?? name,
      labels: {
        ...(pool !== undefined ? { [Labels.NodePool]: pool } : {}),
        [Labels.InstanceType]: last(record.machineType),
        [Labels.Zone]: zone,
        [Labels.CapacityType]: capacityTypeOf(record),
      },
      ...(created !== undefined && !Number.isNaN(created) ? { creationTimestamp: formatTime(created) } : {}),
    },
    spec: {
      requirements: [],
      nodeClassRef: {
        group: GCENodeClassGroup,
        kind: GCENodeClassKind,
        name: labels[InstanceLabelKeys.NodeClass] ?? '',
      },
      expireAfter: '720h',
    },
    status: { providerID: formatProviderID({ project, zone, name }) },
  } as NodeClaim;
  if (record.status === 'STOPPING' || record.status === 'TERMINATED' || record.status === 'SUSPENDING') {
    claim.metadata.deletionTimestamp = formatTime(created ?? 0);
  }
  return claim;
}
