/** The `karpenter.k8s.gcp/instance-*` labels every GCP instance type defines. */
export const GcpLabels = {
  InstanceFamily: 'karpenter.k8s.gcp/instance-family',
  InstanceShape: 'karpenter.k8s.gcp/instance-shape',
  InstanceSize: 'karpenter.k8s.gcp/instance-size',
  InstanceGeneration: 'karpenter.k8s.gcp/instance-generation',
  InstanceCpu: 'karpenter.k8s.gcp/instance-cpu',
  InstanceMemory: 'karpenter.k8s.gcp/instance-memory',
  InstanceGpuName: 'karpenter.k8s.gcp/instance-gpu-name',
  InstanceGpuCount: 'karpenter.k8s.gcp/instance-gpu-count',
  InstanceLocalSsd: 'karpenter.k8s.gcp/instance-local-ssd',
} as const;

/**
 * The provider's well-known labels: every key of {@link GcpLabels}. Every GCP instance type
 * defines each, `DoesNotExist` where it lacks one (no GPU, no local SSD), so a pod may select
 * on them without its NodePool naming them.
 */
export const GcpWellKnownLabels: ReadonlySet<string> = new Set(Object.values(GcpLabels));

/** The GPU resource name GKE's device plugin advertises. */
export const NvidiaGpuResource = 'nvidia.com/gpu';

/** The parts of a machine type name such as `n2-standard-8`, `c3-standard-8-lssd` or `e2-micro`. */
export interface MachineTypeNameParts {
  /** `n2` */
  readonly family: string;
  /** `standard`, `highmem`, `highcpu`; `micro`/`small`/`medium` for E2's shared-core types. */
  readonly shape: string;
  /** `8`; undefined for the shared-core types, which have no size. */
  readonly size?: string;
  /** `2` for n2, n2d, t2a; undefined when the family has no digits. */
  readonly generation?: string;
}

/** Splits a machine type name into family, shape, size and generation. */
export function parseMachineTypeName(name: string): MachineTypeNameParts {
  const [family = name, shape = '', size] = name.split('-');
  const generation = /^[a-z]+([0-9]+)/.exec(family)?.[1];
  return {
    family,
    shape,
    ...(size !== undefined && size !== '' ? { size } : {}),
    ...(generation !== undefined ? { generation } : {}),
  };
}
