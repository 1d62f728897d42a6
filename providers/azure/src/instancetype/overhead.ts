import { Quantity, type ResourceList, ResourceNames } from '@nodewright/core/scheduling';

/** Share of a size's memory the hypervisor keeps, which the node never reports (AKS: 7.5 %). */
export const VmMemoryOverheadPercent = 0.075;
/** AKS's hard eviction threshold for memory.available. */
export const EvictionHardMemoryMiB = 750;

/** Bands of a regressive reservation: the share of each slice of the total, in order. */
type Bands = readonly (readonly [upTo: number, share: number])[];

/** 6 % of the first core, 4 % of the second, 2 % of cores three and four, 1 % of the rest. */
const CpuBands: Bands = [
  [1, 0.06],
  [2, 0.04],
  [4, 0.02],
  [Number.POSITIVE_INFINITY, 0.01],
];
/** 25 % of the first 4 GiB, 20 % up to 8, 10 % up to 16, 6 % up to 128, 2 % above. */
const MemoryBands: Bands = [
  [4, 0.25],
  [8, 0.2],
  [16, 0.1],
  [128, 0.06],
  [Number.POSITIVE_INFINITY, 0.02],
];

function regressive(total: number, bands: Bands): number {
  let reserved = 0;
  let from = 0;
  for (const [upTo, share] of bands) {
    if (total <= from) break;
    reserved += (Math.min(total, upTo) - from) * share;
    from = upTo;
  }
  return reserved;
}

/** AKS kube-reserved CPU in millicores for a size's vCPUs: 2 -> 100m, 4 -> 140m, 8 -> 180m. */
export function kubeReservedCpuMillis(vCPUs: number): number {
  return Math.round(regressive(vCPUs, CpuBands) * 1000);
}

/** AKS kube-reserved memory in MiB for a size's memory in GiB: 8 GiB -> 1843 MiB. */
export function kubeReservedMemoryMiB(memoryGiB: number): number {
  return Math.round(regressive(memoryGiB, MemoryBands) * 1024);
}

/** Memory the node reports, in MiB: the size's GiB less the 7.5 % VM overhead, rounded up. */
export function memoryCapacityMiB(memoryGiB: number): number {
  const mib = Math.round(memoryGiB * 1024);
  return mib - Math.ceil(mib * VmMemoryOverheadPercent);
}

/** What the node keeps: kube-reserved CPU and memory, and the memory eviction threshold. */
export function aksOverhead(vCPUs: number, memoryGiB: number) {
  const kubeReserved: ResourceList = new Map([
    [ResourceNames.CPU, Quantity.parse(`${kubeReservedCpuMillis(vCPUs)}m`)],
    [ResourceNames.Memory, Quantity.parse(`${kubeReservedMemoryMiB(memoryGiB)}Mi`)],
  ]);
  const evictionThreshold: ResourceList = new Map([
    [ResourceNames.Memory, Quantity.parse(`${EvictionHardMemoryMiB}Mi`)],
  ]);
  return { kubeReserved, systemReserved: new Map() as ResourceList, evictionThreshold };
}
