/** One machine type as Compute Engine publishes it (the fields the mock serves). */
export interface MachineTypeFacts {
  readonly name: string;
  readonly guestCpus: number;
  /** MiB, as GCE's `memoryMb`. */
  readonly memoryMb: number;
  readonly isSharedCpu: boolean;
  readonly architecture: 'X86_64' | 'ARM64';
  readonly accelerators?: readonly {
    readonly guestAcceleratorType: string;
    readonly guestAcceleratorCount: number;
  }[];
  readonly maximumPersistentDisks: number;
  /** Zones (of any seeded region) that offer the type. */
  readonly zones: readonly string[];
}

/** The seeded regions and their zones, as GCE names them. */
export const SeedZones: Readonly<Record<string, readonly string[]>> = {
  'us-central1': ['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-central1-f'],
  'us-east1': ['us-east1-b', 'us-east1-c', 'us-east1-d'],
};
const AllZones = Object.values(SeedZones).flat();

interface Family {
  readonly family: string;
  /** Shape -> GiB of memory per vCPU. */
  readonly shapes: Readonly<Record<string, number>>;
  readonly sizes: readonly number[];
  readonly architecture?: 'ARM64';
  readonly zones?: readonly string[];
}

// Published shapes: vCPU counts per family and GiB per vCPU of each shape.
const Families: readonly Family[] = [
  { family: 'e2', shapes: { standard: 4, highmem: 8, highcpu: 1 }, sizes: [2, 4, 8, 16, 32] },
  {
    family: 'n2',
    shapes: { standard: 4, highmem: 8, highcpu: 1 },
    sizes: [2, 4, 8, 16, 32, 48, 64, 80, 96, 128],
  },
  {
    family: 'n2d',
    shapes: { standard: 4, highmem: 8, highcpu: 1 },
    sizes: [2, 4, 8, 16, 32, 48, 64, 80, 96, 128, 224],
  },
  { family: 'n4', shapes: { standard: 4, highmem: 8, highcpu: 2 }, sizes: [2, 4, 8, 16, 32, 48, 64, 80] },
  { family: 'c3', shapes: { standard: 4, highmem: 8, highcpu: 2 }, sizes: [4, 8, 22, 44, 88, 176] },
  { family: 'c3d', shapes: { standard: 4, highmem: 8, highcpu: 2 }, sizes: [4, 8, 16, 30, 60, 90, 180, 360] },
  {
    family: 'c4',
    shapes: { standard: 3.75, highmem: 7.75, highcpu: 2 },
    sizes: [2, 4, 8, 16, 32, 48, 96, 144, 192],
  },
  { family: 't2d', shapes: { standard: 4 }, sizes: [1, 2, 4, 8, 16, 32, 48, 60] },
  {
    family: 't2a',
    shapes: { standard: 4 },
    sizes: [1, 2, 4, 8, 16, 32, 48],
    architecture: 'ARM64',
    zones: ['us-central1-a', 'us-central1-b', 'us-central1-f'],
  },
];

/** G2 (NVIDIA L4): vCPUs -> GPUs, 4 GiB per vCPU, as published. */
const G2Gpus: Readonly<Record<number, number>> = { 4: 1, 8: 1, 12: 1, 16: 1, 24: 2, 32: 1, 48: 4, 96: 8 };
const G2Zones = ['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-east1-b', 'us-east1-c', 'us-east1-d'];

/** E2's shared-core types: 2 vCPUs time-shared, 1, 2 and 4 GiB. */
const SharedCore: readonly [string, number][] = [
  ['e2-micro', 1024],
  ['e2-small', 2048],
  ['e2-medium', 4096],
];

/** Every seeded machine type: real names, vCPUs, memory, architecture and GPUs. */
export function seedMachineTypes(): MachineTypeFacts[] {
  const out: MachineTypeFacts[] = [];
  for (const f of Families) {
    for (const [shape, perCpu] of Object.entries(f.shapes)) {
      for (const size of f.sizes) {
        out.push({
          name: `${f.family}-${shape}-${size}`,
          guestCpus: size,
          memoryMb: Math.round(size * perCpu * 1024),
          isSharedCpu: false,
          architecture: f.architecture ?? 'X86_64',
          maximumPersistentDisks: 128,
          zones: f.zones ?? AllZones,
        });
      }
    }
  }
  for (const [name, memoryMb] of SharedCore) {
    out.push({
      name,
      guestCpus: 2,
      memoryMb,
      isSharedCpu: true,
      architecture: 'X86_64',
      maximumPersistentDisks: 16,
      zones: AllZones,
    });
  }
  for (const [cpus, gpus] of Object.entries(G2Gpus)) {
    out.push({
      name: `g2-standard-${cpus}`,
      guestCpus: Number(cpus),
      memoryMb: Number(cpus) * 4 * 1024,
      isSharedCpu: false,
      architecture: 'X86_64',
      accelerators: [{ guestAcceleratorType: 'nvidia-l4', guestAcceleratorCount: gpus }],
      maximumPersistentDisks: 128,
      zones: G2Zones,
    });
  }
  return out;
}
