import type { InstanceTypeInfo } from '@aws-sdk/client-ec2';

/** The GPUs of an instance type, when it has one kind of them. */
export interface GpuFacts {
  readonly name: string;
  readonly manufacturer: string;
  readonly count: number;
  /** Per GPU. */
  readonly memoryMiB: number;
}

/** AWS Neuron (Inferentia/Trainium) devices. */
export interface NeuronFacts {
  readonly name: string;
  readonly count: number;
}

/**
 * What nodewright needs to know about one EC2 instance type, whether it came from
 * DescribeInstanceTypes or from the static catalog table: the same capacity, overhead and
 * label functions run over both.
 */
export interface InstanceTypeFacts {
  readonly name: string;
  /** Kubernetes spelling: amd64 or arm64. */
  readonly architecture: 'amd64' | 'arm64';
  readonly vcpus: number;
  /** As EC2 reports it, before any VM overhead. */
  readonly memoryMiB: number;
  /** Lower-cased (`intel`, `amd`, `aws`). */
  readonly cpuManufacturer?: string;
  /** ProcessorInfo.SustainedClockSpeedInGhz in MHz, rounded to a whole number (as upstream). */
  readonly cpuSustainedClockSpeedMhz?: number;
  readonly hypervisor?: string;
  /** ENIs on the default network card. */
  readonly maxENIs: number;
  readonly ipv4PerENI: number;
  readonly networkBandwidthMbps?: number;
  readonly ebsBandwidthMbps?: number;
  readonly encryptionInTransitSupported?: boolean;
  /** Total NVMe instance-store size, GB. */
  readonly localNvmeGB?: number;
  readonly gpus: readonly GpuFacts[];
  readonly neuron?: NeuronFacts;
  /** `on-demand` and/or `spot`. */
  readonly capacityTypes: readonly string[];
}

const KubeArchitectures: Readonly<Record<string, 'amd64' | 'arm64'>> = { x86_64: 'amd64', arm64: 'arm64' };

/** The outcome of reading one DescribeInstanceTypes entry. */
export type FactsResult = { readonly facts: InstanceTypeFacts } | { readonly skipped: string };

/**
 * Reads the fields of one DescribeInstanceTypes entry nodewright uses. An entry without a name,
 * vCPUs, memory, a supported architecture or network limits cannot be scheduled and is skipped,
 * with the reason.
 */
export function factsFromInstanceTypeInfo(info: InstanceTypeInfo): FactsResult {
  const name = info.InstanceType;
  if (name === undefined) return { skipped: 'an instance type without InstanceType' };
  const architecture = info.ProcessorInfo?.SupportedArchitectures?.map((a) => KubeArchitectures[a]).find(
    (a) => a !== undefined,
  );
  if (architecture === undefined) {
    return {
      skipped: `${name}: no supported architecture in ProcessorInfo.SupportedArchitectures (${info.ProcessorInfo?.SupportedArchitectures?.join(', ') ?? 'none'})`,
    };
  }
  const vcpus = info.VCpuInfo?.DefaultVCpus;
  const memoryMiB = info.MemoryInfo?.SizeInMiB;
  if (vcpus === undefined || memoryMiB === undefined) {
    return { skipped: `${name}: VCpuInfo.DefaultVCpus or MemoryInfo.SizeInMiB missing` };
  }
  const network = info.NetworkInfo;
  const card = network?.NetworkCards?.[network.DefaultNetworkCardIndex ?? 0];
  const maxENIs = card?.MaximumNetworkInterfaces ?? network?.MaximumNetworkInterfaces;
  const ipv4PerENI = network?.Ipv4AddressesPerInterface;
  if (maxENIs === undefined || ipv4PerENI === undefined) {
    return { skipped: `${name}: NetworkInfo lacks MaximumNetworkInterfaces or Ipv4AddressesPerInterface` };
  }
  const bandwidthGbps = card?.BaselineBandwidthInGbps;
  const storage = info.InstanceStorageInfo;
  const gpus: GpuFacts[] = (info.GpuInfo?.Gpus ?? []).flatMap((g) =>
    g.Count === undefined || g.Count <= 0
      ? []
      : [
          {
            name: g.Name ?? '',
            manufacturer: g.Manufacturer ?? '',
            count: g.Count,
            memoryMiB: g.MemoryInfo?.SizeInMiB ?? 0,
          },
        ],
  );
  const neuronDevices = info.NeuronInfo?.NeuronDevices ?? [];
  const neuronCount = neuronDevices.reduce((n, d) => n + (d.Count ?? 0), 0);
  const ebs = info.EbsInfo;
  return {
    facts: {
      name,
      architecture,
      vcpus,
      memoryMiB,
      ...(info.ProcessorInfo?.Manufacturer !== undefined
        ? { cpuManufacturer: info.ProcessorInfo.Manufacturer.replaceAll(' ', '-').toLowerCase() }
        : {}),
      ...(info.ProcessorInfo?.SustainedClockSpeedInGhz !== undefined
        ? { cpuSustainedClockSpeedMhz: Math.round(info.ProcessorInfo.SustainedClockSpeedInGhz * 1000) }
        : {}),
      ...(info.Hypervisor !== undefined ? { hypervisor: info.Hypervisor } : {}),
      maxENIs,
      ipv4PerENI,
      ...(bandwidthGbps !== undefined ? { networkBandwidthMbps: Math.round(bandwidthGbps * 1000) } : {}),
      ...(ebs?.EbsOptimizedSupport === 'default' && ebs.EbsOptimizedInfo?.MaximumBandwidthInMbps !== undefined
        ? { ebsBandwidthMbps: ebs.EbsOptimizedInfo.MaximumBandwidthInMbps }
        : {}),
      ...(network?.EncryptionInTransitSupported !== undefined
        ? { encryptionInTransitSupported: network.EncryptionInTransitSupported }
        : {}),
      ...(storage?.TotalSizeInGB !== undefined && storage.NvmeSupport !== 'unsupported'
        ? { localNvmeGB: storage.TotalSizeInGB }
        : {}),
      gpus,
      ...(neuronCount > 0 ? { neuron: { name: neuronDevices[0]?.Name ?? '', count: neuronCount } } : {}),
      capacityTypes: (info.SupportedUsageClasses ?? []).filter((u) => u === 'on-demand' || u === 'spot'),
    },
  };
}
