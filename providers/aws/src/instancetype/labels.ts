/** The `karpenter.k8s.aws/*` and `topology.k8s.aws/*` labels instance types define, as upstream names them. */
export const AwsLabels = {
  InstanceCategory: 'karpenter.k8s.aws/instance-category',
  InstanceFamily: 'karpenter.k8s.aws/instance-family',
  InstanceGeneration: 'karpenter.k8s.aws/instance-generation',
  InstanceSize: 'karpenter.k8s.aws/instance-size',
  InstanceCpu: 'karpenter.k8s.aws/instance-cpu',
  InstanceCpuManufacturer: 'karpenter.k8s.aws/instance-cpu-manufacturer',
  InstanceCpuSustainedClockSpeedMhz: 'karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz',
  InstanceMemory: 'karpenter.k8s.aws/instance-memory',
  InstanceNetworkBandwidth: 'karpenter.k8s.aws/instance-network-bandwidth',
  InstanceEbsBandwidth: 'karpenter.k8s.aws/instance-ebs-bandwidth',
  InstanceGpuName: 'karpenter.k8s.aws/instance-gpu-name',
  InstanceGpuManufacturer: 'karpenter.k8s.aws/instance-gpu-manufacturer',
  InstanceGpuCount: 'karpenter.k8s.aws/instance-gpu-count',
  InstanceGpuMemory: 'karpenter.k8s.aws/instance-gpu-memory',
  InstanceAcceleratorName: 'karpenter.k8s.aws/instance-accelerator-name',
  InstanceAcceleratorManufacturer: 'karpenter.k8s.aws/instance-accelerator-manufacturer',
  InstanceAcceleratorCount: 'karpenter.k8s.aws/instance-accelerator-count',
  InstanceHypervisor: 'karpenter.k8s.aws/instance-hypervisor',
  InstanceLocalNvme: 'karpenter.k8s.aws/instance-local-nvme',
  InstanceEncryptionInTransitSupported: 'karpenter.k8s.aws/instance-encryption-in-transit-supported',
  InstanceCapabilityFlex: 'karpenter.k8s.aws/instance-capability-flex',
  CapacityReservationId: 'karpenter.k8s.aws/capacity-reservation-id',
  CapacityReservationType: 'karpenter.k8s.aws/capacity-reservation-type',
  ZoneId: 'topology.k8s.aws/zone-id',
} as const;

/**
 * The labels Karpenter's AWS provider registers as well known (its `pkg/apis/v1/labels.go`:
 * every key of {@link AwsLabels}; `node.kubernetes.io/windows-build`, which it also registers, is
 * core's here). What `AwsCloudProvider.wellKnownLabels()` and the offline catalog declare; every
 * AWS instance type defines each of them, `DoesNotExist` where it lacks the label.
 */
export const AwsWellKnownLabels: ReadonlySet<string> = new Set(Object.values(AwsLabels));

/** Extended resources AWS nodes advertise through their device plugins. */
export const AwsResources = {
  NvidiaGpu: 'nvidia.com/gpu',
  AmdGpu: 'amd.com/gpu',
  AwsNeuron: 'aws.amazon.com/neuron',
} as const;

/** The parts of an instance type name such as `m5.large` or `u-6tb1.metal`. */
export interface InstanceTypeNameParts {
  /** `m5` */
  readonly family: string;
  /** `large` */
  readonly size: string;
  /** `m`; undefined when the name does not follow the `<category><generation>...` scheme. */
  readonly category?: string;
  /** `5` */
  readonly generation?: string;
}

// Upstream's scheme: category letters, an optional `-<n>tb` (high-memory), then the generation digits.
const CategoryGeneration = /^([a-z]+)(-[0-9]+tb)?([0-9]+).*\./;

/** Splits an instance type name into family, size, category and generation (upstream's regex). */
export function parseInstanceTypeName(name: string): InstanceTypeNameParts {
  const dot = name.indexOf('.');
  const family = dot < 0 ? name : name.slice(0, dot);
  const size = dot < 0 ? '' : name.slice(dot + 1);
  const match = CategoryGeneration.exec(name);
  return {
    family,
    size,
    ...(match?.[1] !== undefined ? { category: match[1] } : {}),
    ...(match?.[3] !== undefined ? { generation: match[3] } : {}),
  };
}

/** Lower-cased, spaces as dashes: how upstream turns EC2's names (`NVIDIA`, `T4`) into label values. */
export function labelCase(value: string): string {
  return value.replaceAll(' ', '-').toLowerCase();
}
