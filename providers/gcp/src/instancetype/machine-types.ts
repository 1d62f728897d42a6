import type { GceMachineTypeFacts } from './facts.js';
import { parseMachineTypeName } from './labels.js';

/** One machine type as the aggregated list returns it (the fields read here). */
export interface GceMachineTypeRecord {
  readonly name?: string | null;
  readonly guestCpus?: number | null;
  readonly memoryMb?: number | null;
  readonly isSharedCpu?: boolean | null;
  readonly architecture?: string | null;
  readonly zone?: string | null;
  readonly deprecated?: { readonly state?: string | null } | null;
  readonly accelerators?:
    | readonly {
        readonly guestAcceleratorType?: string | null;
        readonly guestAcceleratorCount?: number | null;
      }[]
    | null;
  readonly bundledLocalSsds?: { readonly partitionCount?: number | null } | null;
}

/** GCE's fixed local SSD partition size. */
const LocalSsdPartitionGiB = 375;

/** Families whose CPUs are Arm even when a record omits `architecture`. */
const ArmFamilies = new Set(['t2a', 'c4a', 'n4a', 'a4x']);

/**
 * The accelerator of the accelerator-optimized families when a record does not list it: A2 and A3
 * sizes end in their GPU count (`a2-highgpu-4g`).
 */
const FamilyGpus: Readonly<Record<string, string>> = {
  a2: 'nvidia-tesla-a100',
  a3: 'nvidia-h100-80gb',
};

const zoneName = (zone: string) => zone.slice(zone.lastIndexOf('/') + 1);

function gpuOf(record: GceMachineTypeRecord, name: string): GceMachineTypeFacts['gpu'] {
  const listed = (record.accelerators ?? []).find((a) => (a.guestAcceleratorCount ?? 0) > 0);
  if (listed?.guestAcceleratorType) {
    return { name: listed.guestAcceleratorType, count: listed.guestAcceleratorCount ?? 0 };
  }
  const parts = parseMachineTypeName(name);
  const gpu = FamilyGpus[parts.family];
  const count = /^([0-9]+)g$/.exec(parts.size ?? '')?.[1];
  return gpu === undefined || count === undefined ? undefined : { name: gpu, count: Number(count) };
}

/**
 * The region's machine types from aggregated-list records: one entry per type with every zone
 * of the region that offers it. Records of other regions, deprecated (or obsolete, deleted)
 * types and records without a name, vCPUs or memory are dropped.
 */
export function machineTypeFacts(
  records: Iterable<GceMachineTypeRecord>,
  region: string,
): GceMachineTypeFacts[] {
  const byName = new Map<string, { record: GceMachineTypeRecord; zones: Set<string> }>();
  for (const record of records) {
    const zone = zoneName(record.zone ?? '');
    if (!zone.startsWith(`${region}-`)) continue;
    if (record.deprecated?.state) continue;
    if (!record.name || !record.guestCpus || !record.memoryMb) continue;
    const entry = byName.get(record.name) ?? { record, zones: new Set<string>() };
    entry.zones.add(zone);
    byName.set(record.name, entry);
  }
  return [...byName.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, { record, zones }]) => {
      const family = parseMachineTypeName(name).family;
      const partitions = record.bundledLocalSsds?.partitionCount ?? 0;
      return {
        name,
        vcpus: record.guestCpus!,
        memoryMiB: record.memoryMb!,
        sharedCpu: record.isSharedCpu === true,
        architecture: record.architecture === 'ARM64' || ArmFamilies.has(family) ? 'arm64' : 'amd64',
        gpu: gpuOf(record, name),
        ...(partitions > 0 ? { localSsdGiB: partitions * LocalSsdPartitionGiB } : {}),
        zones: [...zones].sort(),
      };
    });
}
