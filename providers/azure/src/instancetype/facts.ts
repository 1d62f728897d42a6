import type { SkuFact } from '../catalog/sku-facts.js';

/** The parts of an ARM Resource SKU the provider reads (the SDK's ResourceSku, structurally). */
export interface ResourceSkuInfo {
  readonly resourceType?: string;
  readonly name?: string;
  readonly family?: string;
  readonly locations?: readonly string[];
  readonly locationInfo?: readonly { readonly location?: string; readonly zones?: readonly string[] }[];
  readonly capabilities?: readonly { readonly name?: string; readonly value?: string }[];
  readonly restrictions?: readonly {
    readonly type?: string;
    readonly values?: readonly string[];
    readonly restrictionInfo?: { readonly locations?: readonly string[]; readonly zones?: readonly string[] };
    readonly reasonCode?: string;
  }[];
}

/** A size offered in the region: its facts and the zones (ARM's `1`, `2`, `3`) it may launch in. */
export interface OfferedSku {
  readonly fact: SkuFact;
  /** ARM zone numbers; empty in a region without availability zones. */
  readonly zones: readonly string[];
}

/** The smallest sizes a node is useful on (AKS NAP's floor). */
export const MinVCPUs = 2;
export const MinMemoryGiB = 3.5;

/**
 * Reads one Resource SKU: a VM size listed in `location`, not restricted there for the
 * subscription, with at least 2 vCPUs and 3.5 GiB, and its zones less those restricted.
 * Otherwise the reason it is skipped, for the log.
 */
export function offeredSku(
  sku: ResourceSkuInfo,
  location: string,
): { sku: OfferedSku } | { skipped: string } {
  const name = sku.name ?? '';
  const loc = location.toLowerCase();
  if (sku.resourceType !== 'virtualMachines')
    return { skipped: `${name}: resource type ${sku.resourceType}` };
  if (!(sku.locations ?? []).some((l) => l.toLowerCase() === loc))
    return { skipped: `${name}: not in ${location}` };
  const restrictedZones = new Set<string>();
  for (const r of sku.restrictions ?? []) {
    const inLocation = (r.values ?? []).some((v) => v.toLowerCase() === loc);
    if (r.type === 'Location' && inLocation) {
      return { skipped: `${name}: restricted in ${location} (${r.reasonCode ?? 'no reason given'})` };
    }
    if (r.type === 'Zone') for (const z of r.restrictionInfo?.zones ?? []) restrictedZones.add(z);
  }
  const cap = (key: string) => sku.capabilities?.find((c) => c.name === key)?.value;
  const vCPUs = Number(cap('vCPUs') ?? Number.NaN);
  const memoryGB = Number(cap('MemoryGB') ?? Number.NaN);
  if (!(vCPUs >= MinVCPUs))
    return { skipped: `${name}: ${cap('vCPUs') ?? 'no'} vCPUs, fewer than ${MinVCPUs}` };
  if (!(memoryGB >= MinMemoryGiB))
    return { skipped: `${name}: ${cap('MemoryGB') ?? 'no'} GB, less than ${MinMemoryGiB}` };
  const allZones = (sku.locationInfo ?? [])
    .filter((i) => i.location?.toLowerCase() === loc)
    .flatMap((i) => i.zones ?? []);
  const zones = [...new Set(allZones)].filter((z) => !restrictedZones.has(z)).sort();
  if (allZones.length > 0 && zones.length === 0)
    return { skipped: `${name}: restricted in every zone of ${location}` };
  const bool = (key: string) => cap(key)?.toLowerCase() === 'true';
  const gpuCount = Number(cap('GPUs') ?? '0');
  const architecture = cap('CpuArchitectureType') === 'Arm64' ? 'Arm64' : 'x64';
  const fact: SkuFact = {
    name,
    family: sku.family ?? '',
    vCPUs,
    memoryGB,
    architecture,
    hyperVGenerations: cap('HyperVGenerations') === 'V2' ? 'V2' : 'V1,V2',
    lowPriorityCapable: bool('LowPriorityCapable'),
    premiumIO: bool('PremiumIO'),
    acceleratedNetworking: bool('AcceleratedNetworkingEnabled'),
    encryptionAtHost: bool('EncryptionAtHostSupported'),
    maxNetworkInterfaces: Number(cap('MaxNetworkInterfaces') ?? '1'),
    ...(gpuCount > 0 ? { gpus: { name: '', count: gpuCount } } : {}),
  };
  return { sku: { fact, zones } };
}
