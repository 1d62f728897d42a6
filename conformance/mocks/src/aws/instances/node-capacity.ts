import { eniLimitedPods, type InstanceTypeFacts } from '../seed/instance-types.js';

/**
 * The share of nominal memory kubelet reports as capacity on these instances (the kernel and
 * firmware keep the rest; an m5.large with 8192 MiB reports about 7.9 GiB). Karpenter's own
 * estimate subtracts 7.5 %, so real nodes come out a little bigger than predicted — as here.
 */
export const REPORTED_MEMORY_FRACTION = 0.97;

/** Node capacity as kubelet would report it on an instance of this type. */
export function nodeCapacity(t: InstanceTypeFacts, rootVolumeGiB: number): Record<string, string> {
  const pods = eniLimitedPods(t);
  return {
    cpu: String(t.vcpus),
    memory: `${Math.floor(t.memoryMiB * REPORTED_MEMORY_FRACTION) * 1024}Ki`,
    pods: String(pods),
    'ephemeral-storage': `${rootVolumeGiB * 1024 * 1024}Ki`,
    ...(t.gpu && t.gpu.manufacturer === 'NVIDIA' ? { 'nvidia.com/gpu': String(t.gpu.count) } : {}),
  };
}

/** EKS's kube-reserved CPU in millicores: 6 % of the first core, 1 % of the second, 0.5 % of 3-4, 0.25 % above. */
export function kubeReservedCpuMillis(vcpus: number): number {
  const bands: readonly (readonly [number, number])[] = [
    [1, 0.06],
    [1, 0.01],
    [2, 0.005],
    [Number.POSITIVE_INFINITY, 0.0025],
  ];
  let left = vcpus;
  let reserved = 0;
  for (const [cores, share] of bands) {
    const n = Math.min(left, cores);
    reserved += n * 1000 * share;
    left -= n;
    if (left <= 0) break;
  }
  return Math.round(reserved);
}

/**
 * Allocatable as kubelet would report it with the EKS AMIs' defaults: capacity minus
 * kube-reserved (cpu bands above, memory 11 MiB x pods + 255 MiB, 1 GiB ephemeral) and the hard
 * eviction thresholds (memory 100 MiB, ephemeral 10 %).
 */
export function nodeAllocatable(
  t: InstanceTypeFacts,
  capacity: Readonly<Record<string, string>>,
): Record<string, string> {
  const pods = Number(capacity.pods);
  const memKi = Number.parseInt(capacity.memory ?? '0', 10) - (11 * pods + 255 + 100) * 1024;
  const storageKi = Number.parseInt(capacity['ephemeral-storage'] ?? '0', 10);
  return {
    ...capacity,
    cpu: `${t.vcpus * 1000 - kubeReservedCpuMillis(t.vcpus)}m`,
    memory: `${Math.max(0, memKi)}Ki`,
    'ephemeral-storage': `${Math.max(0, Math.floor(storageKi * 0.9) - 1024 * 1024)}Ki`,
  };
}
