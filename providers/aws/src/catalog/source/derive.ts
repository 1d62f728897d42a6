import { AwsLabels } from '../../instancetype/labels.js';
import type { AwsCatalogData, CatalogRow } from '../data.js';
import type { PriceTable, VpcLimits } from './go-tables.js';
import type { InstanceTypeDoc } from './instance-types-md.js';

/** What "current generation" means for the offline catalog; written into the table's source note. */
export const CurrentGenerationRule =
  'every family none of whose sizes runs on the Xen hypervisor (karpenter.k8s.aws/instance-hypervisor ' +
  'is nitro, or empty for bare metal): the Nitro-era families. Xen-era families (t1, t2, m1-m4, c1, ' +
  'c3, c4, r3, r4, i2, i3, d2, h1, x1, x1e, ...) are previous generation and left out.';

/** The parsed public tables the offline catalog is derived from. */
export interface CatalogSources {
  readonly instanceTypes: readonly InstanceTypeDoc[];
  readonly vpcLimits: ReadonlyMap<string, VpcLimits>;
  readonly bandwidth: ReadonlyMap<string, number>;
  readonly prices: readonly PriceTable[];
  readonly source: AwsCatalogData['source'];
}

/** A type of the sources the table leaves out, and why. */
export interface SkippedType {
  readonly name: string;
  readonly reason: string;
}

/** Regions whose price tables are not in USD (aws-cn lists CNY); a USD catalog cannot mix them in. */
const NonUsdRegion = /^cn-/;

const int = (value: string | undefined): number | undefined => {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
};

/**
 * The offline table from the public sources: every current-generation type (see
 * {@link CurrentGenerationRule}) with its vCPUs, memory, manufacturer, hypervisor, GPUs, Neuron
 * devices, NVMe, EBS bandwidth and encryption-in-transit from its Karpenter labels; ENIs and
 * IPv4 per ENI from the VPC limits; bandwidth from the bandwidth table (else the label); and
 * its on-demand price in every USD region that lists one. Types without VPC limits or without a
 * price anywhere are skipped with the reason. Rows are sorted by name.
 */
export function deriveCatalogData(sources: CatalogSources): { data: AwsCatalogData; skipped: SkippedType[] } {
  const skipped: SkippedType[] = [];
  const xenFamilies = new Set<string>();
  for (const doc of sources.instanceTypes) {
    const hypervisor =
      doc.labels[AwsLabels.InstanceHypervisor] ?? sources.vpcLimits.get(doc.name)?.hypervisor;
    if (hypervisor === 'xen') xenFamilies.add(familyOf(doc));
  }
  const regions = new Map<string, ReadonlyMap<string, number>>();
  for (const table of sources.prices) {
    for (const [region, prices] of table.regions) if (!NonUsdRegion.test(region)) regions.set(region, prices);
  }
  const rows: CatalogRow[] = [];
  for (const doc of sources.instanceTypes) {
    const family = familyOf(doc);
    if (xenFamilies.has(family)) {
      skipped.push({ name: doc.name, reason: `previous generation: family ${family} runs on Xen` });
      continue;
    }
    const result = rowOf(doc, sources, regions);
    if ('reason' in result) skipped.push({ name: doc.name, reason: result.reason });
    else rows.push(result);
  }
  rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { data: { source: sources.source, instanceTypes: rows }, skipped };
}

function familyOf(doc: InstanceTypeDoc): string {
  return doc.labels[AwsLabels.InstanceFamily] ?? doc.name.split('.')[0] ?? doc.name;
}

function rowOf(
  doc: InstanceTypeDoc,
  sources: CatalogSources,
  regions: ReadonlyMap<string, ReadonlyMap<string, number>>,
): CatalogRow | { reason: string } {
  const labels = doc.labels;
  const architecture = labels['kubernetes.io/arch'];
  if (architecture !== 'amd64' && architecture !== 'arm64') {
    return { reason: `architecture ${architecture ?? 'missing'} is not amd64 or arm64` };
  }
  const vcpus = int(labels[AwsLabels.InstanceCpu]);
  const memoryMiB = int(labels[AwsLabels.InstanceMemory]);
  if (vcpus === undefined || memoryMiB === undefined) {
    return { reason: `no ${AwsLabels.InstanceCpu} or ${AwsLabels.InstanceMemory} label` };
  }
  const limits = sources.vpcLimits.get(doc.name);
  if (limits === undefined) return { reason: 'not in the VPC limits table (ENIs unknown)' };
  const prices: Record<string, number> = {};
  for (const [region, table] of regions) {
    const price = table.get(doc.name);
    if (price !== undefined && price > 0) prices[region] = price;
  }
  if (Object.keys(prices).length === 0)
    return { reason: 'no on-demand price in any region of the price tables' };
  const gpuCount = int(labels[AwsLabels.InstanceGpuCount]);
  const gpuName = labels[AwsLabels.InstanceGpuName];
  const neuronCount = int(labels[AwsLabels.InstanceAcceleratorCount]);
  const neuronName = labels[AwsLabels.InstanceAcceleratorName];
  const optional = {
    cpuManufacturer: labels[AwsLabels.InstanceCpuManufacturer] || undefined,
    hypervisor: labels[AwsLabels.InstanceHypervisor] || undefined,
    networkBandwidthMbps: sources.bandwidth.get(doc.name) ?? int(labels[AwsLabels.InstanceNetworkBandwidth]),
    ebsBandwidthMbps: int(labels[AwsLabels.InstanceEbsBandwidth]),
    encryptionInTransitSupported: booleanLabel(labels[AwsLabels.InstanceEncryptionInTransitSupported]),
    localNvmeGB: int(labels[AwsLabels.InstanceLocalNvme]),
    gpu:
      gpuCount !== undefined && gpuCount > 0 && gpuName !== undefined
        ? {
            name: gpuName,
            manufacturer: labels[AwsLabels.InstanceGpuManufacturer] ?? '',
            count: gpuCount,
            memoryMiB: int(labels[AwsLabels.InstanceGpuMemory]) ?? 0,
          }
        : undefined,
    // Only AWS's own accelerators are Neuron devices (aws.amazon.com/neuron); others, such as
    // dl2q's Qualcomm cards, have no device the provider models, as with DescribeInstanceTypes.
    neuron:
      labels[AwsLabels.InstanceAcceleratorManufacturer] === 'aws' &&
      neuronCount !== undefined &&
      neuronCount > 0 &&
      neuronName !== undefined
        ? { name: neuronName, count: neuronCount }
        : undefined,
  };
  const row: Record<string, unknown> = {
    name: doc.name,
    architecture,
    vcpus,
    memoryMiB,
    maxENIs: limits.maxENIs,
    ipv4PerENI: limits.ipv4PerENI,
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) row[key] = value;
  row.prices = prices;
  return row as CatalogRow;
}

function booleanLabel(value: string | undefined): boolean | undefined {
  return value === 'true' ? true : value === 'false' ? false : undefined;
}
