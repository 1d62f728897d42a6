import type { CommunityGalleryImageVersion, VirtualMachine } from '@azure/arm-compute';
import type { NetworkInterface } from '@azure/arm-network';
import type { ResourceSkuInfo } from '../instancetype/facts.js';

export type { CommunityGalleryImageVersion, NetworkInterface, VirtualMachine };

/**
 * The Compute calls the provider makes. Long-running ones resolve when ARM's operation has
 * finished (the SDK polls `Azure-AsyncOperation`) and reject with the ARM error otherwise.
 */
export interface ComputeApi {
  /** Every Resource SKU of the subscription in `location`, all pages. */
  listResourceSkus(location: string): AsyncIterable<ResourceSkuInfo>;
  /** Every version of a community gallery's image definition as replicated to `location`, all pages. */
  listCommunityGalleryImageVersions(
    location: string,
    gallery: string,
    image: string,
  ): AsyncIterable<CommunityGalleryImageVersion>;
  createVirtualMachine(resourceGroup: string, name: string, body: VirtualMachine): Promise<VirtualMachine>;
  getVirtualMachine(resourceGroup: string, name: string): Promise<VirtualMachine>;
  listVirtualMachines(resourceGroup: string): AsyncIterable<VirtualMachine>;
  deleteVirtualMachine(resourceGroup: string, name: string): Promise<void>;
  deleteDisk(resourceGroup: string, name: string): Promise<void>;
}

/** The Network calls the provider makes; long-running ones as in {@link ComputeApi}. */
export interface NetworkApi {
  createNetworkInterface(
    resourceGroup: string,
    name: string,
    body: NetworkInterface,
  ): Promise<NetworkInterface>;
  deleteNetworkInterface(resourceGroup: string, name: string): Promise<void>;
  listNetworkInterfaces(resourceGroup: string): AsyncIterable<NetworkInterface>;
}
