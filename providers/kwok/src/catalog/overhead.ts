import type { CatalogOverhead } from '@nodewright/core/apis';

/**
 * Millicores kubelet reserves for itself on a node with this many cores: 6 % of the first
 * core, 1 % of the second, 0.5 % of the third and fourth and 0.25 % of every further core,
 * rounded up to a whole millicore. This is the tiering GKE and EKS publish, so synthetic nodes
 * lose about as much CPU as real ones.
 */
export function kubeReservedMilliCpu(cores: number): number {
  const tiers: Array<[upTo: number, fraction: number]> = [
    [1, 0.06],
    [2, 0.01],
    [4, 0.005],
    [Number.POSITIVE_INFINITY, 0.0025],
  ];
  let milli = 0;
  let below = 0;
  for (const [upTo, fraction] of tiers) {
    const inTier = Math.max(0, Math.min(cores, upTo) - below);
    milli += inTier * fraction * 1000;
    below = upTo;
  }
  return Math.ceil(milli - 1e-9);
}

/** MiB kubelet reserves for a node running at most `maxPods` pods: 255 MiB + 11 MiB per pod (EKS). */
export function kubeReservedMemoryMi(maxPods: number): number {
  return 255 + 11 * maxPods;
}

/** Kubelet's default hard eviction thresholds: memory.available<100Mi, nodefs.available<10%. */
export const EvictionMemoryMi = 100;
export const EvictionEphemeralStorageFraction = 0.1;

/**
 * The overhead of a synthetic node: kube-reserved by the tiers above, no system-reserved, and
 * kubelet's default eviction thresholds.
 */
export function syntheticOverhead(
  cores: number,
  maxPods: number,
  ephemeralStorageGi: number,
): CatalogOverhead {
  return {
    kubeReserved: { cpu: `${kubeReservedMilliCpu(cores)}m`, memory: `${kubeReservedMemoryMi(maxPods)}Mi` },
    systemReserved: {},
    evictionThreshold: {
      memory: `${EvictionMemoryMi}Mi`,
      'ephemeral-storage': `${Math.ceil(ephemeralStorageGi * 1024 * EvictionEphemeralStorageFraction)}Mi`,
    },
  };
}
