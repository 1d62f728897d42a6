import { CapacityTypes, kubeletLabels, Labels, type NodeClaim } from '@nodewright/core/apis';
import {
  CreateError,
  InsufficientCapacityError,
  type OfferingKey,
  type UnavailableOfferingsCache,
} from '@nodewright/core/cloudprovider';
import { parseResourceList, Requirements } from '@nodewright/core/scheduling';
import type { AKSNodeClass } from '../apis/index.js';
import type { SkuFact } from '../catalog/sku-facts.js';
import type { Instances } from '../instance/instances.js';
import { DefaultMaxPods, DefaultOsDiskSizeGB } from '../instancetype/build.js';
import { armZone } from '../instancetype/zones.js';
import type { ProviderLogger } from '../logger.js';
import { imageFor } from '../nodeclass/images.js';
import { armFailure } from '../sdk/arm-error.js';
import type { ComputeApi, NetworkApi, VirtualMachine } from '../sdk/ports.js';
import { type Candidate, launchCandidates } from './candidates.js';
import { capacityScope } from './capacity-errors.js';
import { renderCustomData } from './custom-data.js';
import { nicName, osDiskName, vmName } from './names.js';
import { resourceTags } from './tags.js';

/** Launches tried within one create before it gives up with InsufficientCapacity. */
export const DefaultMaxLaunchAttempts = 3;

export interface LauncherDeps {
  readonly compute: ComputeApi;
  readonly network: NetworkApi;
  readonly instances: Instances;
  readonly unavailableOfferings: UnavailableOfferingsCache;
  readonly logger: ProviderLogger;
  readonly subscriptionId: string;
  readonly resourceGroup: string;
  readonly location: string;
  readonly clusterName: string;
  readonly clusterEndpoint?: string | undefined;
  /** The subnet a NodeClass without vnetSubnetID uses. */
  readonly defaultSubnetID?: string | undefined;
  readonly sshPublicKey?: string | undefined;
  /** The facts of a size (its quota family); undefined for one no longer listed. */
  readonly skuFact: (size: string) => SkuFact | undefined;
  readonly maxAttempts?: number;
}

export interface LaunchInput {
  readonly nodeClaim: NodeClaim;
  readonly nodeClass: AKSNodeClass;
  readonly instanceTypes: Parameters<typeof launchCandidates>[2];
}

export interface Launched {
  readonly vm: VirtualMachine;
  readonly candidate: Candidate;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * One VM per create, Azure having no fleet API: the NIC, then the VM on the cheapest candidate
 * offering. A capacity refusal marks the offerings its scope covers unavailable and the next
 * cheapest candidate still available is tried, up to `maxAttempts` launches, so one refusal
 * does not cost a provisioning round. Whatever a failed create made (NIC, failed VM, disk) is
 * removed before it throws.
 */
export class Launcher {
  constructor(private readonly d: LauncherDeps) {}

  async launch(input: LaunchInput): Promise<Launched> {
    const { nodeClaim, nodeClass } = input;
    const claim = nodeClaim.metadata.name ?? '';
    const requirements = Requirements.fromNodeSelectorRequirements(nodeClaim.spec.requirements);
    const requests = parseResourceList(nodeClaim.spec.resources?.requests ?? {});
    const found = launchCandidates(requirements, requests, input.instanceTypes);
    if (!found.ok) {
      if (found.insufficientCapacity)
        throw new InsufficientCapacityError(`NodeClaim ${claim}: ${found.reason}`);
      throw new CreateError('NoCompatibleInstanceTypes', `NodeClaim ${claim}: ${found.reason}`);
    }
    const subnet = nodeClass.spec.vnetSubnetID ?? this.d.defaultSubnetID;
    if (subnet === undefined) {
      throw new CreateError(
        'SubnetNotSet',
        `AKSNodeClass ${nodeClass.metadata.name}: no vnetSubnetID and no subnetID setting`,
      );
    }
    const name = vmName(claim);
    const refused: string[] = [];
    const maxAttempts = this.d.maxAttempts ?? DefaultMaxLaunchAttempts;
    let attempts = 0;
    try {
      for (const candidate of found.candidates) {
        if (attempts >= maxAttempts) break;
        if (this.#unavailable(candidate)) continue;
        attempts++;
        const outcome = await this.#attempt(name, candidate, input, subnet);
        if (outcome.vm !== undefined) return { vm: outcome.vm, candidate };
        refused.push(outcome.refused);
      }
    } catch (err) {
      await this.#cleanup(name);
      throw err;
    }
    await this.#cleanup(name);
    throw new InsufficientCapacityError(
      `NodeClaim ${claim}: ${attempts} launch${attempts === 1 ? '' : 'es'} refused for capacity (${refused.join('; ')})`,
      refused.map((r) => r.split(' ')[0]!),
    );
  }

  #unavailable(c: Candidate): boolean {
    return this.d.unavailableOfferings.isUnavailable(this.#key(c));
  }

  #key(c: Candidate): OfferingKey {
    return {
      capacityType: c.offering.capacityType,
      instanceType: c.instanceType.name,
      zone: c.offering.zone,
    };
  }

  /** One launch: the NIC (idempotent PUT), then the VM. Returns the VM, or what refused it. */
  async #attempt(
    name: string,
    candidate: Candidate,
    input: LaunchInput,
    subnet: string,
  ): Promise<{ vm: VirtualMachine; refused?: undefined } | { vm?: undefined; refused: string }> {
    const { nodeClaim, nodeClass } = input;
    const size = candidate.instanceType.name;
    const fact = this.d.skuFact(size);
    const spot = candidate.offering.capacityType === CapacityTypes.Spot;
    const arch = [...(candidate.instanceType.requirements.get(Labels.Arch)?.values ?? [])][0] ?? 'amd64';
    const image = imageFor(nodeClass, arch);
    if (image === undefined) {
      throw new CreateError(
        'ImageNotResolved',
        `AKSNodeClass ${nodeClass.metadata.name} has no ${arch} image in its status`,
      );
    }
    const tags = resourceTags({
      clusterName: this.d.clusterName,
      nodePool: nodeClaim.metadata.labels?.[Labels.NodePool] ?? '',
      nodeClaim: nodeClaim.metadata.name ?? '',
      nodeClassName: nodeClass.metadata.name ?? '',
      nodeClassTags: nodeClass.spec.tags,
    });
    let nic: Awaited<ReturnType<NetworkApi['createNetworkInterface']>>;
    try {
      nic = await this.d.network.createNetworkInterface(this.d.resourceGroup, nicName(name), {
        location: this.d.location,
        tags,
        ipConfigurations: [
          { name: 'ipconfig1', primary: true, privateIPAllocationMethod: 'Dynamic', subnet: { id: subnet } },
        ],
        enableAcceleratedNetworking: fact?.acceleratedNetworking ?? false,
      });
    } catch (err) {
      const f = armFailure(err);
      throw new CreateError(
        f.code ?? 'NetworkInterfaceCreationFailed',
        `NIC ${nicName(name)}: ${f.message}`,
        { cause: err },
      );
    }
    const labels = kubeletLabels({
      ...nodeClaim.metadata.labels,
      [Labels.CapacityType]: candidate.offering.capacityType,
    });
    const customData = renderCustomData({
      clusterName: this.d.clusterName,
      clusterEndpoint: this.d.clusterEndpoint,
      labels,
      taints: [...(nodeClaim.spec.taints ?? []), ...(nodeClaim.spec.startupTaints ?? [])],
      maxPods: nodeClass.spec.maxPods ?? DefaultMaxPods,
      kubelet: nodeClass.spec.kubelet,
    });
    const zone = armZone(this.d.location, candidate.offering.zone);
    const body: VirtualMachine = {
      location: this.d.location,
      ...(zone !== undefined ? { zones: [zone] } : {}),
      tags,
      hardwareProfile: { vmSize: size },
      storageProfile: {
        imageReference: { communityGalleryImageId: image },
        osDisk: {
          name: osDiskName(name),
          createOption: 'FromImage',
          diskSizeGB: nodeClass.spec.osDiskSizeGB ?? DefaultOsDiskSizeGB,
          deleteOption: 'Delete',
          managedDisk: { storageAccountType: fact?.premiumIO === false ? 'StandardSSD_LRS' : 'Premium_LRS' },
        },
      },
      osProfile: {
        computerName: name,
        adminUsername: 'azureuser',
        customData: Buffer.from(customData, 'utf8').toString('base64'),
        linuxConfiguration: {
          disablePasswordAuthentication: true,
          ...(this.d.sshPublicKey !== undefined
            ? {
                ssh: {
                  publicKeys: [
                    { path: '/home/azureuser/.ssh/authorized_keys', keyData: this.d.sshPublicKey },
                  ],
                },
              }
            : {}),
        },
      },
      networkProfile: { networkInterfaces: [{ id: nic.id ?? '', primary: true, deleteOption: 'Delete' }] },
      ...(spot
        ? { priority: 'Spot', evictionPolicy: 'Delete', billingProfile: { maxPrice: -1 } }
        : { priority: 'Regular' }),
      ...(nodeClass.spec.security?.encryptionAtHost === true
        ? { securityProfile: { encryptionAtHost: true } }
        : {}),
    };
    try {
      const vm = await this.d.compute.createVirtualMachine(this.d.resourceGroup, name, body);
      return { vm };
    } catch (err) {
      const failure = armFailure(err);
      const capacity = capacityScope(failure, fact?.family ?? '');
      if (capacity === undefined) {
        throw new CreateError(
          failure.code ?? 'VirtualMachineCreationFailed',
          `VM ${name} (${size}): ${failure.message}`,
          {
            cause: err,
          },
        );
      }
      const marked = this.#mark(
        candidate,
        capacity.scope,
        input,
        `${failure.code}: ${failure.message}`,
        capacity.ttlMs,
      );
      this.d.logger.info(
        {
          NodeClaim: { name: nodeClaim.metadata.name },
          code: failure.code,
          size,
          zone: candidate.offering.zone,
          marked,
        },
        'ARM refused the VM for capacity; marked offerings unavailable and trying the next cheapest',
      );
      // ARM keeps a VM whose allocation failed (provisioningState Failed); it goes before the next try.
      await this.d.instances
        .find(name)
        .then((vm) =>
          vm === undefined ? undefined : this.d.compute.deleteVirtualMachine(this.d.resourceGroup, name),
        );
      return { refused: `${marked[0] ?? ''} ${failure.code}` };
    }
  }

  /** Marks the offerings a refusal covers; returns their keys, the launched one first. */
  #mark(
    candidate: Candidate,
    scope: NonNullable<ReturnType<typeof capacityScope>>['scope'],
    input: LaunchInput,
    reason: string,
    ttlMs: number,
  ): string[] {
    const launched = this.#key(candidate);
    const keys: OfferingKey[] = [launched];
    for (const t of input.instanceTypes) {
      for (const o of t.offerings) {
        const key = { capacityType: o.capacityType, instanceType: t.name, zone: o.zone };
        const covered =
          scope.scope === 'size'
            ? t.name === launched.instanceType && o.capacityType === launched.capacityType
            : scope.scope === 'capacity-type'
              ? o.capacityType === launched.capacityType
              : scope.scope === 'family'
                ? o.capacityType === launched.capacityType && this.d.skuFact(t.name)?.family === scope.family
                : false;
        if (
          covered &&
          !(
            key.instanceType === launched.instanceType &&
            key.zone === launched.zone &&
            key.capacityType === launched.capacityType
          )
        ) {
          keys.push(key);
        }
      }
    }
    for (const k of keys) this.d.unavailableOfferings.markUnavailable(k, reason, ttlMs);
    return keys.map((k) => `${k.capacityType}:${k.instanceType}:${k.zone}`);
  }

  async #cleanup(name: string): Promise<void> {
    try {
      await this.d.instances.delete(name);
    } catch (err) {
      // NodeClaimNotFound: no VM was left; its NIC and disk were removed all the same.
      if (!(err instanceof Error && err.name === 'NodeClaimNotFoundError')) {
        this.d.logger.error({ vm: name, error: message(err) }, 'could not remove what a failed launch made');
      }
    }
  }
}
