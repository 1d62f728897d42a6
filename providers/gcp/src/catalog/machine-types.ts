import type { GceMachineTypeFacts } from '../instancetype/facts.js';

/** The zones of the regions the offline catalog covers. */
export const CatalogZones: Readonly<Record<string, readonly string[]>> = {
  'us-central1': ['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-central1-f'],
  'us-east1': ['us-east1-b', 'us-east1-c', 'us-east1-d'],
};

/** family: GiB per vCPU of each shape, the published vCPU counts, and the architecture. */
const PredefinedFamilies: readonly (readonly [
  family: string,
  shapes: Readonly<Record<string, number>>,
  sizes: readonly number[],
  arm?: true,
])[] = [
  ['e2', { standard: 4, highmem: 8, highcpu: 1 }, [2, 4, 8, 16, 32]],
  ['n2', { standard: 4, highmem: 8, highcpu: 1 }, [2, 4, 8, 16, 32, 48, 64, 80, 96, 128]],
  ['n2d', { standard: 4, highmem: 8, highcpu: 1 }, [2, 4, 8, 16, 32, 48, 64, 80, 96, 128, 224]],
  ['n4', { standard: 4, highmem: 8, highcpu: 2 }, [2, 4, 8, 16, 32, 48, 64, 80]],
  ['c3', { standard: 4, highmem: 8, highcpu: 2 }, [4, 8, 22, 44, 88, 176]],
  ['c3d', { standard: 4, highmem: 8, highcpu: 2 }, [4, 8, 16, 30, 60, 90, 180, 360]],
  ['c4', { standard: 3.75, highmem: 7.75, highcpu: 2 }, [2, 4, 8, 16, 32, 48, 96, 144, 192]],
  ['t2d', { standard: 4 }, [1, 2, 4, 8, 16, 32, 48, 60]],
  ['t2a', { standard: 4 }, [1, 2, 4, 8, 16, 32, 48], true],
];

/** Zones where a family is not offered in every zone of the region. */
const FamilyZones: Readonly<Record<string, readonly string[]>> = {
  t2a: ['us-central1-a', 'us-central1-b', 'us-central1-f'],
  g2: ['us-central1-a', 'us-central1-b', 'us-central1-c', 'us-east1-b', 'us-east1-c', 'us-east1-d'],
};

/** G2 (NVIDIA L4): vCPUs and their L4 count; 4 GiB per vCPU. */
const G2Sizes: readonly (readonly [vcpus: number, gpus: number])[] = [
  [4, 1],
  [8, 1],
  [12, 1],
  [16, 1],
  [24, 2],
  [32, 1],
  [48, 4],
  [96, 8],
];

/**
 * The predefined machine types of the common families (e2 with its shared-core types, n2, n2d,
 * n4, c3, c3d, c4, t2d, t2a, g2) as Compute Engine publishes them, offered in `region`'s zones.
 */
export function catalogMachineTypes(region: string): GceMachineTypeFacts[] {
  const regionZones = CatalogZones[region] ?? [];
  const zonesOf = (family: string) =>
    (FamilyZones[family] ?? regionZones).filter((z) => regionZones.includes(z));
  const out: GceMachineTypeFacts[] = [];
  for (const [family, shapes, sizes, arm] of PredefinedFamilies) {
    for (const [shape, gibPerCpu] of Object.entries(shapes)) {
      for (const vcpus of sizes) {
        out.push({
          name: `${family}-${shape}-${vcpus}`,
          vcpus,
          memoryMiB: Math.round(vcpus * gibPerCpu * 1024),
          sharedCpu: false,
          architecture: arm ? 'arm64' : 'amd64',
          zones: zonesOf(family),
        });
      }
    }
  }
  for (const [size, memoryMiB] of [
    ['micro', 1024],
    ['small', 2048],
    ['medium', 4096],
  ] as const) {
    out.push({
      name: `e2-${size}`,
      vcpus: 2,
      memoryMiB,
      sharedCpu: true,
      architecture: 'amd64',
      zones: zonesOf('e2'),
    });
  }
  for (const [vcpus, gpus] of G2Sizes) {
    out.push({
      name: `g2-standard-${vcpus}`,
      vcpus,
      memoryMiB: vcpus * 4 * 1024,
      sharedCpu: false,
      architecture: 'amd64',
      gpu: { name: 'nvidia-l4', count: gpus },
      zones: zonesOf('g2'),
    });
  }
  return out.filter((t) => t.zones.length > 0);
}
