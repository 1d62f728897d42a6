import type { InstanceTypeInfo } from '@aws-sdk/client-ec2';

/** DescribeInstanceTypes entries with EC2's real figures, for tests. */
export const M5Large: InstanceTypeInfo = {
  InstanceType: 'm5.large',
  SupportedUsageClasses: ['on-demand', 'spot'],
  Hypervisor: 'nitro',
  ProcessorInfo: { SupportedArchitectures: ['x86_64'], Manufacturer: 'Intel' },
  VCpuInfo: { DefaultVCpus: 2 },
  MemoryInfo: { SizeInMiB: 8192 },
  EbsInfo: { EbsOptimizedSupport: 'default', EbsOptimizedInfo: { MaximumBandwidthInMbps: 4750 } },
  NetworkInfo: {
    MaximumNetworkInterfaces: 3,
    Ipv4AddressesPerInterface: 10,
    DefaultNetworkCardIndex: 0,
    NetworkCards: [{ NetworkCardIndex: 0, MaximumNetworkInterfaces: 3, BaselineBandwidthInGbps: 0.75 }],
    EncryptionInTransitSupported: false,
  },
};

export const M6gLarge: InstanceTypeInfo = {
  InstanceType: 'm6g.large',
  SupportedUsageClasses: ['on-demand', 'spot'],
  Hypervisor: 'nitro',
  ProcessorInfo: { SupportedArchitectures: ['arm64'], Manufacturer: 'AWS' },
  VCpuInfo: { DefaultVCpus: 2 },
  MemoryInfo: { SizeInMiB: 8192 },
  NetworkInfo: {
    MaximumNetworkInterfaces: 3,
    Ipv4AddressesPerInterface: 10,
    DefaultNetworkCardIndex: 0,
    NetworkCards: [{ NetworkCardIndex: 0, MaximumNetworkInterfaces: 3, BaselineBandwidthInGbps: 0.75 }],
  },
};

export const G4dnXlarge: InstanceTypeInfo = {
  InstanceType: 'g4dn.xlarge',
  SupportedUsageClasses: ['on-demand', 'spot'],
  Hypervisor: 'nitro',
  ProcessorInfo: { SupportedArchitectures: ['x86_64'], Manufacturer: 'Intel' },
  VCpuInfo: { DefaultVCpus: 4 },
  MemoryInfo: { SizeInMiB: 16384 },
  InstanceStorageInfo: { TotalSizeInGB: 125, NvmeSupport: 'required' },
  GpuInfo: {
    Gpus: [{ Name: 'T4', Manufacturer: 'NVIDIA', Count: 1, MemoryInfo: { SizeInMiB: 16384 } }],
    TotalGpuMemoryInMiB: 16384,
  },
  NetworkInfo: {
    MaximumNetworkInterfaces: 3,
    Ipv4AddressesPerInterface: 10,
    DefaultNetworkCardIndex: 0,
    NetworkCards: [{ NetworkCardIndex: 0, MaximumNetworkInterfaces: 3, BaselineBandwidthInGbps: 5 }],
    EncryptionInTransitSupported: true,
  },
};
