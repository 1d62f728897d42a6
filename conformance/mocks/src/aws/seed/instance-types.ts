/**
 * Public facts about one EC2 instance type, as DescribeInstanceTypes reports them, plus its
 * us-east-1 Linux on-demand price. Values are AWS's published ones (instance type pages and the
 * public price list); network strings are EC2's `networkPerformance` wording.
 */
export interface InstanceTypeFacts {
  readonly name: string;
  readonly vcpus: number;
  readonly memoryMiB: number;
  readonly architecture: 'x86_64' | 'arm64';
  readonly manufacturer: 'Intel' | 'AMD' | 'AWS';
  readonly processor: string;
  readonly clockGhz: number;
  readonly hypervisor: 'nitro' | 'xen';
  readonly burstable: boolean;
  readonly maxEnis: number;
  readonly ipv4PerEni: number;
  readonly networkPerformance: string;
  readonly gpu?: {
    readonly name: string;
    readonly manufacturer: string;
    readonly count: number;
    readonly memoryMiB: number;
  };
  /** Local NVMe instance storage in GB (one disk), when the type has it. */
  readonly localNvmeGB?: number;
  /** USD per hour, Linux, shared tenancy, us-east-1. */
  readonly onDemandUsd: number;
  readonly currentGeneration: boolean;
}

/** ENI limits per size for the current Nitro families (EC2 "IP addresses per network interface" table). */
const ENIS: Record<number, readonly [number, number]> = {
  1: [2, 4],
  2: [3, 10],
  4: [4, 15],
  8: [4, 15],
  16: [8, 30],
  32: [8, 30],
  36: [8, 30],
  48: [8, 30],
  64: [15, 50],
  72: [15, 50],
  96: [15, 50],
  128: [15, 50],
};

const SIZE_BY_VCPU: Record<number, string> = {
  1: 'medium',
  2: 'large',
  4: 'xlarge',
  8: '2xlarge',
  16: '4xlarge',
  32: '8xlarge',
  36: '9xlarge',
  48: '12xlarge',
  64: '16xlarge',
  72: '18xlarge',
  96: '24xlarge',
  128: '32xlarge',
};

interface Family {
  readonly family: string;
  readonly vcpus: readonly number[];
  readonly gibPerVcpu: number;
  readonly usdPerVcpu: number;
  readonly architecture: 'x86_64' | 'arm64';
  readonly manufacturer: 'Intel' | 'AWS';
  readonly processor: string;
  readonly clockGhz: number;
  readonly network: (vcpus: number) => string;
}

const upTo = (small: string, big: Record<number, string>) => (vcpus: number) =>
  vcpus <= 16 ? `Up to ${small} Gigabit` : `${big[vcpus] ?? small} Gigabit`;

const net5 = upTo('10', { 32: '10', 36: '12', 48: '12', 64: '20', 72: '25', 96: '25' });
const net6i = upTo('12.5', { 32: '12.5', 48: '18.75', 64: '25', 96: '37.5', 128: '50' });
const netG2 = upTo('10', { 32: '12', 48: '20', 64: '25' });
const netG3 = upTo('12.5', { 32: '15', 48: '22.5', 64: '30' });

const FAMILIES: readonly Family[] = [
  fam('m5', [2, 4, 8, 16, 32, 48, 64, 96], 4, 0.048, 'Intel', 'Intel Xeon Platinum 8175', 3.1, net5),
  fam(
    'm6i',
    [2, 4, 8, 16, 32, 48, 64, 96, 128],
    4,
    0.048,
    'Intel',
    'Intel Xeon 8375C (Ice Lake)',
    3.5,
    net6i,
  ),
  fam(
    'm7i',
    [2, 4, 8, 16, 32, 48, 64, 96],
    4,
    0.0504,
    'Intel',
    'Intel Xeon Scalable (Sapphire Rapids)',
    3.2,
    net6i,
  ),
  fam('c5', [2, 4, 8, 16, 36, 48, 72, 96], 2, 0.0425, 'Intel', 'Intel Xeon Platinum 8124M', 3.4, net5),
  fam(
    'c6i',
    [2, 4, 8, 16, 32, 48, 64, 96, 128],
    2,
    0.0425,
    'Intel',
    'Intel Xeon 8375C (Ice Lake)',
    3.5,
    net6i,
  ),
  fam(
    'c7i',
    [2, 4, 8, 16, 32, 48, 64, 96],
    2,
    0.044625,
    'Intel',
    'Intel Xeon Scalable (Sapphire Rapids)',
    3.2,
    net6i,
  ),
  fam('r5', [2, 4, 8, 16, 32, 48, 64, 96], 8, 0.063, 'Intel', 'Intel Xeon Platinum 8175', 3.1, net5),
  fam(
    'r6i',
    [2, 4, 8, 16, 32, 48, 64, 96, 128],
    8,
    0.063,
    'Intel',
    'Intel Xeon 8375C (Ice Lake)',
    3.5,
    net6i,
  ),
  fam('m6g', [1, 2, 4, 8, 16, 32, 48, 64], 4, 0.0385, 'AWS', 'AWS Graviton2 Processor', 2.5, netG2),
  fam('c6g', [1, 2, 4, 8, 16, 32, 48, 64], 2, 0.034, 'AWS', 'AWS Graviton2 Processor', 2.5, netG2),
  fam('r6g', [1, 2, 4, 8, 16, 32, 48, 64], 8, 0.0504, 'AWS', 'AWS Graviton2 Processor', 2.5, netG2),
  fam('m7g', [1, 2, 4, 8, 16, 32, 48, 64], 4, 0.0408, 'AWS', 'AWS Graviton3 Processor', 2.6, netG3),
];

function fam(
  family: string,
  vcpus: readonly number[],
  gibPerVcpu: number,
  usdPerVcpu: number,
  manufacturer: 'Intel' | 'AWS',
  processor: string,
  clockGhz: number,
  network: (vcpus: number) => string,
): Family {
  const architecture = manufacturer === 'AWS' ? 'arm64' : 'x86_64';
  return { family, vcpus, gibPerVcpu, usdPerVcpu, architecture, manufacturer, processor, clockGhz, network };
}

function expand(f: Family): InstanceTypeFacts[] {
  return f.vcpus.map((vcpus) => {
    const [maxEnis, ipv4PerEni] = ENIS[vcpus] ?? [15, 50];
    return {
      name: `${f.family}.${SIZE_BY_VCPU[vcpus]}`,
      vcpus,
      memoryMiB: vcpus * f.gibPerVcpu * 1024,
      architecture: f.architecture,
      manufacturer: f.manufacturer,
      processor: f.processor,
      clockGhz: f.clockGhz,
      hypervisor: 'nitro',
      burstable: false,
      maxEnis,
      ipv4PerEni,
      networkPerformance: f.network(vcpus),
      onDemandUsd: Math.round(vcpus * f.usdPerVcpu * 1e6) / 1e6,
      currentGeneration: true,
    };
  });
}

const intel = (name: string, processor: string, clockGhz: number) => ({
  name,
  architecture: 'x86_64' as const,
  manufacturer: 'Intel' as const,
  processor,
  clockGhz,
  currentGeneration: true,
});

const T3 = intel('', 'Intel Skylake E5 2686 v5', 2.5);
const SPECIALS: readonly InstanceTypeFacts[] = [
  {
    ...T3,
    name: 't3.medium',
    vcpus: 2,
    memoryMiB: 4096,
    hypervisor: 'nitro',
    burstable: true,
    maxEnis: 3,
    ipv4PerEni: 6,
    networkPerformance: 'Up to 5 Gigabit',
    onDemandUsd: 0.0416,
  },
  {
    ...T3,
    name: 't3.large',
    vcpus: 2,
    memoryMiB: 8192,
    hypervisor: 'nitro',
    burstable: true,
    maxEnis: 3,
    ipv4PerEni: 12,
    networkPerformance: 'Up to 5 Gigabit',
    onDemandUsd: 0.0832,
  },
  {
    ...T3,
    name: 't3.xlarge',
    vcpus: 4,
    memoryMiB: 16384,
    hypervisor: 'nitro',
    burstable: true,
    maxEnis: 4,
    ipv4PerEni: 15,
    networkPerformance: 'Up to 5 Gigabit',
    onDemandUsd: 0.1664,
  },
  {
    ...T3,
    name: 't3.2xlarge',
    vcpus: 8,
    memoryMiB: 32768,
    hypervisor: 'nitro',
    burstable: true,
    maxEnis: 4,
    ipv4PerEni: 15,
    networkPerformance: 'Up to 5 Gigabit',
    onDemandUsd: 0.3328,
  },
  {
    ...intel('m4.large', 'Intel Xeon E5-2676 v3 (Haswell)', 2.4),
    vcpus: 2,
    memoryMiB: 8192,
    hypervisor: 'xen',
    burstable: false,
    maxEnis: 2,
    ipv4PerEni: 10,
    networkPerformance: 'Moderate',
    onDemandUsd: 0.1,
    currentGeneration: false,
  },
  {
    ...intel('m4.xlarge', 'Intel Xeon E5-2676 v3 (Haswell)', 2.4),
    vcpus: 4,
    memoryMiB: 16384,
    hypervisor: 'xen',
    burstable: false,
    maxEnis: 4,
    ipv4PerEni: 15,
    networkPerformance: 'High',
    onDemandUsd: 0.2,
    currentGeneration: false,
  },
  {
    ...intel('m5d.large', 'Intel Xeon Platinum 8175', 3.1),
    vcpus: 2,
    memoryMiB: 8192,
    hypervisor: 'nitro',
    burstable: false,
    maxEnis: 3,
    ipv4PerEni: 10,
    networkPerformance: 'Up to 10 Gigabit',
    localNvmeGB: 75,
    onDemandUsd: 0.113,
  },
  {
    ...intel('m5d.xlarge', 'Intel Xeon Platinum 8175', 3.1),
    vcpus: 4,
    memoryMiB: 16384,
    hypervisor: 'nitro',
    burstable: false,
    maxEnis: 4,
    ipv4PerEni: 15,
    networkPerformance: 'Up to 10 Gigabit',
    localNvmeGB: 150,
    onDemandUsd: 0.226,
  },
  {
    ...intel('g4dn.xlarge', 'Intel Xeon Family', 2.5),
    vcpus: 4,
    memoryMiB: 16384,
    hypervisor: 'nitro',
    burstable: false,
    maxEnis: 3,
    ipv4PerEni: 10,
    networkPerformance: 'Up to 25 Gigabit',
    gpu: { name: 'T4', manufacturer: 'NVIDIA', count: 1, memoryMiB: 16384 },
    localNvmeGB: 125,
    onDemandUsd: 0.526,
  },
  {
    ...intel('g4dn.2xlarge', 'Intel Xeon Family', 2.5),
    vcpus: 8,
    memoryMiB: 32768,
    hypervisor: 'nitro',
    burstable: false,
    maxEnis: 3,
    ipv4PerEni: 10,
    networkPerformance: 'Up to 25 Gigabit',
    gpu: { name: 'T4', manufacturer: 'NVIDIA', count: 1, memoryMiB: 16384 },
    localNvmeGB: 225,
    onDemandUsd: 0.752,
  },
];

/** A GPU instance type's published facts (vCPUs, memory GiB, GPUs, NVMe GB, network, ENIs, USD). */
function gpuType(
  name: string,
  host: { readonly processor: string; readonly manufacturer: 'Intel' | 'AMD'; readonly clockGhz: number },
  facts: {
    readonly vcpus: number;
    readonly memoryGiB: number;
    readonly gpu: InstanceTypeFacts['gpu'] & object;
    readonly localNvmeGB: number;
    readonly networkPerformance: string;
    readonly enis: readonly [number, number];
    readonly onDemandUsd: number;
  },
): InstanceTypeFacts {
  return {
    name,
    vcpus: facts.vcpus,
    memoryMiB: facts.memoryGiB * 1024,
    architecture: 'x86_64',
    manufacturer: host.manufacturer,
    processor: host.processor,
    clockGhz: host.clockGhz,
    hypervisor: 'nitro',
    burstable: false,
    maxEnis: facts.enis[0],
    ipv4PerEni: facts.enis[1],
    networkPerformance: facts.networkPerformance,
    gpu: facts.gpu,
    localNvmeGB: facts.localNvmeGB,
    onDemandUsd: facts.onDemandUsd,
    currentGeneration: true,
  };
}

const G5_HOST = { processor: 'AMD EPYC 7R32', manufacturer: 'AMD', clockGhz: 3.3 } as const;
const G6_HOST = { processor: 'AMD EPYC 7R13', manufacturer: 'AMD', clockGhz: 3.95 } as const;
const A10G = (count: number) => ({ name: 'A10G', manufacturer: 'NVIDIA', count, memoryMiB: 24576 });
const L4 = (count: number) => ({ name: 'L4', manufacturer: 'NVIDIA', count, memoryMiB: 22888 });

/**
 * The GPU families of examples/nodepools/aws/gpu.yaml (g5, g6, p4d, p5), with AWS's published
 * sizes, GPUs, instance storage, ENI limits and us-east-1 Linux on-demand prices (P4d/P5 at the
 * list prices before the 2025 reductions).
 */
const GPU_TYPES: readonly InstanceTypeFacts[] = [
  gpuType('g5.xlarge', G5_HOST, {
    vcpus: 4,
    memoryGiB: 16,
    gpu: A10G(1),
    localNvmeGB: 250,
    networkPerformance: 'Up to 10 Gigabit',
    enis: [4, 15],
    onDemandUsd: 1.006,
  }),
  gpuType('g5.2xlarge', G5_HOST, {
    vcpus: 8,
    memoryGiB: 32,
    gpu: A10G(1),
    localNvmeGB: 450,
    networkPerformance: 'Up to 10 Gigabit',
    enis: [4, 15],
    onDemandUsd: 1.212,
  }),
  gpuType('g5.4xlarge', G5_HOST, {
    vcpus: 16,
    memoryGiB: 64,
    gpu: A10G(1),
    localNvmeGB: 600,
    networkPerformance: 'Up to 25 Gigabit',
    enis: [8, 30],
    onDemandUsd: 1.624,
  }),
  gpuType('g5.12xlarge', G5_HOST, {
    vcpus: 48,
    memoryGiB: 192,
    gpu: A10G(4),
    localNvmeGB: 3800,
    networkPerformance: '40 Gigabit',
    enis: [15, 50],
    onDemandUsd: 5.672,
  }),
  gpuType('g6.xlarge', G6_HOST, {
    vcpus: 4,
    memoryGiB: 16,
    gpu: L4(1),
    localNvmeGB: 250,
    networkPerformance: 'Up to 10 Gigabit',
    enis: [4, 15],
    onDemandUsd: 0.8048,
  }),
  gpuType('g6.2xlarge', G6_HOST, {
    vcpus: 8,
    memoryGiB: 32,
    gpu: L4(1),
    localNvmeGB: 450,
    networkPerformance: 'Up to 10 Gigabit',
    enis: [4, 15],
    onDemandUsd: 0.9776,
  }),
  gpuType('g6.12xlarge', G6_HOST, {
    vcpus: 48,
    memoryGiB: 192,
    gpu: L4(4),
    localNvmeGB: 3760,
    networkPerformance: '40 Gigabit',
    enis: [8, 30],
    onDemandUsd: 4.6016,
  }),
  gpuType(
    'p4d.24xlarge',
    { processor: 'Intel Xeon Platinum 8275CL', manufacturer: 'Intel', clockGhz: 3.0 },
    {
      vcpus: 96,
      memoryGiB: 1152,
      gpu: { name: 'A100', manufacturer: 'NVIDIA', count: 8, memoryMiB: 40960 },
      localNvmeGB: 8000,
      networkPerformance: '4x 100 Gigabit',
      enis: [15, 50],
      onDemandUsd: 32.7726,
    },
  ),
  gpuType(
    'p5.48xlarge',
    { processor: 'AMD EPYC 7R13', manufacturer: 'AMD', clockGhz: 3.6 },
    {
      vcpus: 192,
      memoryGiB: 2048,
      gpu: { name: 'H100', manufacturer: 'NVIDIA', count: 8, memoryMiB: 81920 },
      localNvmeGB: 30720,
      networkPerformance: '3200 Gigabit',
      enis: [2, 50],
      onDemandUsd: 98.32,
    },
  ),
];

/** Every seeded instance type, sorted by name (DescribeInstanceTypes order is by name too). */
export const SEED_INSTANCE_TYPES: readonly InstanceTypeFacts[] = [
  ...FAMILIES.flatMap(expand),
  ...SPECIALS,
  ...GPU_TYPES,
].sort((a, b) => a.name.localeCompare(b.name));

/** Pods kubelet allows on the VPC CNI without prefix delegation: ENIs x (IPv4 per ENI - 1) + 2. */
export function eniLimitedPods(t: Pick<InstanceTypeFacts, 'maxEnis' | 'ipv4PerEni'>): number {
  return t.maxEnis * (t.ipv4PerEni - 1) + 2;
}
