import { Labels, type NodeClaim, NodeClaimApiVersion } from '@nodewright/core/apis';
import type { InstanceType } from '@nodewright/core/cloudprovider';
import { formatResourceList } from '@nodewright/core/scheduling';
import {
  AKSNodeClassAnnotations,
  AKSNodeClassGroup,
  AKSNodeClassHashVersion,
  AKSNodeClassKind,
} from '../apis/index.js';
import { zoneLabel } from '../instancetype/zones.js';
import { AzureTagKeys } from '../launch/tags.js';
import type { VirtualMachine } from '../sdk/ports.js';
import { formatProviderID } from './provider-id.js';

/** Where the VM runs and what it is. */
export interface VmPlacement {
  readonly subscriptionId: string;
  readonly resourceGroup: string;
  readonly location: string;
}

/** The capacity type of a VM from its priority. */
export function capacityTypeOf(vm: VirtualMachine): 'spot' | 'on-demand' {
  return vm.priority === 'Spot' || vm.priority === 'Low' ? 'spot' : 'on-demand';
}

/** The VM's image id (community gallery, shared gallery, or image resource). */
export function imageIdOf(vm: VirtualMachine): string | undefined {
  const ref = vm.storageProfile?.imageReference;
  return ref?.communityGalleryImageId ?? ref?.sharedGalleryImageId ?? ref?.id;
}

/**
 * The NodeClaim create returns: providerID, the size's labels with zone and capacity type,
 * capacity and allocatable, the image, and the AKSNodeClass hash and Kubernetes version
 * annotations. The claim's own labels win.
 */
export function hydrateNodeClaim(
  claim: NodeClaim,
  vm: VirtualMachine,
  o: VmPlacement & {
    instanceType: InstanceType | undefined;
    nodeClassHash: string;
    /** The NodeClass status's Kubernetes version the VM boots into; unset when it has none. */
    kubernetesVersion?: string | undefined;
  },
): NodeClaim {
  const out = structuredClone(claim);
  out.metadata.labels = {
    ...o.instanceType?.requirements.labels(),
    [Labels.InstanceType]: vm.hardwareProfile?.vmSize ?? '',
    [Labels.Zone]: zoneLabel(o.location, vm.zones?.[0]),
    [Labels.CapacityType]: capacityTypeOf(vm),
    ...claim.metadata.labels,
  };
  out.metadata.annotations = {
    ...claim.metadata.annotations,
    [AKSNodeClassAnnotations.Hash]: o.nodeClassHash,
    [AKSNodeClassAnnotations.HashVersion]: AKSNodeClassHashVersion,
    ...(o.kubernetesVersion ? { [AKSNodeClassAnnotations.KubernetesVersion]: o.kubernetesVersion } : {}),
  };
  const image = imageIdOf(vm);
  out.status = {
    ...out.status,
    providerID: formatProviderID(o.subscriptionId, o.resourceGroup, vm.name ?? ''),
    ...(image !== undefined ? { imageID: image } : {}),
    ...(o.instanceType !== undefined
      ? {
          capacity: formatResourceList(o.instanceType.capacity),
          allocatable: formatResourceList(o.instanceType.allocatable),
        }
      : {}),
  };
  return out;
}

/** The NodeClaim view of a VM for get and list, named by its NodeClaim tag (else the VM name). */
export function nodeClaimFromVm(vm: VirtualMachine, o: VmPlacement): NodeClaim {
  const tags = vm.tags ?? {};
  const pool = tags[AzureTagKeys.NodePool];
  const image = imageIdOf(vm);
  const claim = {
    apiVersion: NodeClaimApiVersion,
    kind: 'NodeClaim',
    metadata: {
      name: tags[AzureTagKeys.NodeClaim] ?? vm.name ?? '',
      labels: {
        ...(pool !== undefined ? { [Labels.NodePool]: pool } : {}),
        [Labels.InstanceType]: vm.hardwareProfile?.vmSize ?? '',
        [Labels.Zone]: zoneLabel(o.location, vm.zones?.[0]),
        [Labels.CapacityType]: capacityTypeOf(vm),
      },
      ...(vm.timeCreated !== undefined ? { creationTimestamp: new Date(vm.timeCreated).toISOString() } : {}),
    },
    spec: {
      requirements: [],
      nodeClassRef: {
        group: AKSNodeClassGroup,
        kind: AKSNodeClassKind,
        name: tags[AzureTagKeys.AKSNodeClass] ?? '',
      },
      expireAfter: '720h',
    },
    status: {
      providerID: formatProviderID(o.subscriptionId, o.resourceGroup, vm.name ?? ''),
      ...(image !== undefined ? { imageID: image } : {}),
    },
  } as NodeClaim;
  if (vm.provisioningState === 'Deleting') {
    claim.metadata.deletionTimestamp = new Date(vm.timeCreated ?? 0).toISOString();
  }
  return claim;
}
