import type { ComputeApi, NetworkApi } from './ports.js';

type PortMethods = `compute.${keyof ComputeApi}` | `network.${keyof NetworkApi}`;

/**
 * The ARM actions each SDK port call needs: the least-privilege custom role of the README is
 * exactly their union (a test keeps the two equal, and every port method listed).
 */
export const ArmActionsByCall: Readonly<Record<PortMethods, readonly string[]>> = {
  'compute.listResourceSkus': ['Microsoft.Compute/skus/read'],
  'compute.listCommunityGalleryImageVersions': [
    'Microsoft.Compute/locations/communityGalleries/images/versions/read',
  ],
  'compute.createVirtualMachine': [
    'Microsoft.Compute/virtualMachines/write',
    'Microsoft.Compute/disks/write',
    'Microsoft.Network/networkInterfaces/join/action',
  ],
  'compute.getVirtualMachine': ['Microsoft.Compute/virtualMachines/read'],
  'compute.listVirtualMachines': ['Microsoft.Compute/virtualMachines/read'],
  'compute.deleteVirtualMachine': ['Microsoft.Compute/virtualMachines/delete'],
  'compute.deleteDisk': ['Microsoft.Compute/disks/delete'],
  'network.createNetworkInterface': [
    'Microsoft.Network/networkInterfaces/write',
    'Microsoft.Network/virtualNetworks/subnets/join/action',
  ],
  'network.deleteNetworkInterface': ['Microsoft.Network/networkInterfaces/delete'],
  'network.listNetworkInterfaces': ['Microsoft.Network/networkInterfaces/read'],
};

/** The custom role's `actions`, sorted and without repeats. */
export function requiredArmActions(): string[] {
  return [...new Set(Object.values(ArmActionsByCall).flat())].sort();
}
