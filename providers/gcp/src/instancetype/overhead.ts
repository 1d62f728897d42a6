import type { InstanceTypeOverhead } from '@nodewright/core/cloudprovider';
import { Quantity, QuantityFormats, type ResourceList, ResourceNames } from '@nodewright/core/scheduling';
import type { KubeletConfiguration } from '../apis/index.js';

/** GKE reserves this much CPU on E2's shared-core types, whose two vCPUs are time-shared. */
export const SharedCoreReservedMilliCpu = 1060;

/** [start, end, fraction] of a progressive band: the fraction applies to the part inside it. */
type Band = readonly [start: number, end: number, fraction: number];

const CpuBandsMilli: readonly Band[] = [
  [0, 1000, 0.06],
  [1000, 2000, 0.01],
  [2000, 4000, 0.005],
  [4000, Number.POSITIVE_INFINITY, 0.0025],
];

const GiB = 1024;
const MemoryBandsMiB: readonly Band[] = [
  [0, 4 * GiB, 0.25],
  [4 * GiB, 8 * GiB, 0.2],
  [8 * GiB, 16 * GiB, 0.1],
  [16 * GiB, 128 * GiB, 0.06],
  [128 * GiB, Number.POSITIVE_INFINITY, 0.02],
];

function banded(amount: number, bands: readonly Band[]): number {
  let total = 0;
  for (const [start, end, fraction] of bands) {
    if (amount <= start) break;
    total += (Math.min(amount, end) - start) * fraction;
  }
  return total;
}

/**
 * Millicores GKE reserves for the kubelet and system daemons: 6 % of the first core, 1 % of the
 * second, 0.5 % of the next two and 0.25 % of every core above four; 1060m on shared-core types.
 */
export function gkeReservedMilliCpu(vcpus: number, sharedCpu: boolean): number {
  if (sharedCpu) return SharedCoreReservedMilliCpu;
  return Math.floor(banded(vcpus * 1000, CpuBandsMilli));
}

/**
 * MiB GKE reserves: 255 MiB on machines with less than 1 GiB; otherwise 25 % of the first 4 GiB,
 * 20 % of the next 4, 10 % of the next 8, 6 % of the next 112 and 2 % of everything above 128 GiB.
 */
export function gkeReservedMemoryMiB(memoryMiB: number): number {
  if (memoryMiB < GiB) return 255;
  return Math.ceil(banded(memoryMiB, MemoryBandsMiB));
}

/** Kubelet's hard eviction threshold for memory on GKE nodes. */
export const EvictionMemory = '100Mi';
/** Kubelet's default nodefs.available threshold. */
export const EvictionNodefs = '10%';

function parseList(map: Readonly<Record<string, string>> | undefined): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [name, value] of Object.entries(map ?? {})) out.set(name, Quantity.parse(value));
  return out;
}

/** `10%` of `of` (rounded up to a byte), or the quantity itself. */
function threshold(of: Quantity, text: string): Quantity {
  if (!text.endsWith('%')) return Quantity.parse(text);
  const hundredths = BigInt(Math.round(Number.parseFloat(text.slice(0, -1)) * 100));
  return Quantity.fromUnits((of.toUnits() * hundredths + 9999n) / 10000n, QuantityFormats.BinarySI);
}

/**
 * The node's overhead as GKE computes it: kube-reserved cpu and memory from the machine's vCPUs
 * and memory, eviction at 100Mi of memory and 10 % of the boot disk; each resource replaced by
 * the NodeClass's kubeReserved, systemReserved or evictionHard where those set it.
 */
export function gkeOverhead(
  machine: { readonly vcpus: number; readonly memoryMiB: number; readonly sharedCpu: boolean },
  capacity: ResourceList,
  kubelet?: KubeletConfiguration,
): InstanceTypeOverhead {
  const kubeReserved = new Map<string, Quantity>([
    [ResourceNames.CPU, Quantity.fromMilli(gkeReservedMilliCpu(machine.vcpus, machine.sharedCpu))],
    [ResourceNames.Memory, Quantity.parse(`${gkeReservedMemoryMiB(machine.memoryMiB)}Mi`)],
  ]);
  for (const [name, q] of parseList(kubelet?.kubeReserved)) kubeReserved.set(name, q);
  const memory = capacity.get(ResourceNames.Memory) ?? Quantity.zero();
  const storage = capacity.get(ResourceNames.EphemeralStorage) ?? Quantity.zero();
  const evictionThreshold = new Map<string, Quantity>([
    [ResourceNames.Memory, threshold(memory, kubelet?.evictionHard?.['memory.available'] ?? EvictionMemory)],
    [
      ResourceNames.EphemeralStorage,
      threshold(storage, kubelet?.evictionHard?.['nodefs.available'] ?? EvictionNodefs),
    ],
  ]);
  return { kubeReserved, systemReserved: parseList(kubelet?.systemReserved), evictionThreshold };
}
