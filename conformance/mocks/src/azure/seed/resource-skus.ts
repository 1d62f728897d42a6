import type { SkuFact } from '@nodewright/azure';

/** A Resource SKU restriction, as ARM lists it. */
export interface SkuRestriction {
  readonly type: 'Location' | 'Zone';
  readonly values: readonly string[];
  readonly restrictionInfo: { readonly locations?: readonly string[]; readonly zones?: readonly string[] };
  readonly reasonCode: 'NotAvailableForSubscription' | 'QuotaId';
}

/** One entry of `GET .../providers/Microsoft.Compute/skus`, in ARM's shape. */
export interface ResourceSku {
  readonly resourceType: string;
  readonly name: string;
  readonly tier: string;
  readonly size: string;
  readonly family: string;
  readonly locations: readonly string[];
  readonly locationInfo: readonly { readonly location: string; readonly zones: readonly string[] }[];
  readonly capabilities: readonly { readonly name: string; readonly value: string }[];
  readonly restrictions: readonly SkuRestriction[];
}

const bool = (b: boolean) => (b ? 'True' : 'False');

/** The Resource SKU ARM lists for a size in a region with zones 1-3. */
export function resourceSku(
  fact: SkuFact,
  location: string,
  restrictions: readonly SkuRestriction[] = [],
): ResourceSku {
  const capabilities: [string, string][] = [
    ['MaxResourceVolumeMB', '0'],
    ['OSVhdSizeMB', '1047552'],
    ['vCPUs', String(fact.vCPUs)],
    ['MemoryPreservingMaintenanceSupported', 'True'],
    ['HyperVGenerations', fact.hyperVGenerations],
    ['MemoryGB', String(fact.memoryGB)],
    ['MaxDataDiskCount', String(Math.min(64, fact.vCPUs * 2))],
    ['CpuArchitectureType', fact.architecture],
    ['LowPriorityCapable', bool(fact.lowPriorityCapable)],
    ['PremiumIO', bool(fact.premiumIO)],
    ['VMDeploymentTypes', 'IaaS'],
    ['vCPUsAvailable', String(fact.vCPUs)],
    ['vCPUsPerCore', fact.architecture === 'Arm64' ? '1' : '2'],
    ['EphemeralOSDiskSupported', 'False'],
    ['EncryptionAtHostSupported', bool(fact.encryptionAtHost)],
    ['AcceleratedNetworkingEnabled', bool(fact.acceleratedNetworking)],
    ['RdmaEnabled', 'False'],
    ['MaxNetworkInterfaces', String(fact.maxNetworkInterfaces)],
  ];
  if (fact.gpus !== undefined) capabilities.push(['GPUs', String(fact.gpus.count)]);
  return {
    resourceType: 'virtualMachines',
    name: fact.name,
    tier: 'Standard',
    size: fact.name.replace(/^Standard_/, ''),
    family: fact.family,
    locations: [location],
    locationInfo: [{ location, zones: ['1', '2', '3'] }],
    capabilities: capabilities.map(([name, value]) => ({ name, value })),
    restrictions,
  };
}

/** SKUs of other resource types ARM lists alongside VM sizes, which a client must skip. */
export function nonVmSkus(location: string): ResourceSku[] {
  return ['Premium_LRS', 'StandardSSD_LRS'].map((name) => ({
    resourceType: 'disks',
    name,
    tier: name.split('_')[0]!,
    size: 'P10',
    family: '',
    locations: [location],
    locationInfo: [{ location, zones: ['1', '2', '3'] }],
    capabilities: [{ name: 'MaxSizeGiB', value: '128' }],
    restrictions: [],
  }));
}
