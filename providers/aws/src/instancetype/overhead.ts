import type { InstanceTypeOverhead } from '@nodewright/core/cloudprovider';
import { Quantity, QuantityFormats, type ResourceList, ResourceNames } from '@nodewright/core/scheduling';
import type { KubeletConfiguration } from '../apis/index.js';

/**
 * Millicores kube-reserved takes on a node with this many vCPUs: 6 % of the first core, 1 % of
 * the second, 0.5 % of the third and fourth, 0.25 % of the rest; each band truncated to whole
 * millicores as upstream does (2 vCPU -> 70m, 5 vCPU -> 82m).
 */
export function kubeReservedMilliCpu(vcpus: number): number {
  const bands: ReadonlyArray<readonly [start: number, end: number, fraction: number]> = [
    [0, 1000, 0.06],
    [1000, 2000, 0.01],
    [2000, 4000, 0.005],
    [4000, 2 ** 31, 0.0025],
  ];
  const milli = vcpus * 1000;
  let reserved = 0;
  for (const [start, end, fraction] of bands) {
    if (milli < start) continue;
    reserved += Math.trunc((Math.min(milli, end) - start) * fraction);
  }
  return reserved;
}

/** MiB kube-reserved takes for a node admitting `pods` pods: 11 MiB each plus 255 MiB (EKS). */
export function kubeReservedMemoryMiB(pods: number): number {
  return 11 * pods + 255;
}

function parseList(map: Readonly<Record<string, string>> | undefined): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [name, value] of Object.entries(map ?? {})) out.set(name, Quantity.parse(value));
  return out;
}

/** kube-reserved: the EKS formula (cpu bands, 11 MiB/pod + 255 MiB, 1Gi disk), each resource overridable by `kubelet.kubeReserved`. */
export function kubeReserved(vcpus: number, pods: number, kubelet?: KubeletConfiguration): ResourceList {
  const reserved = new Map<string, Quantity>([
    [ResourceNames.CPU, Quantity.fromMilli(kubeReservedMilliCpu(vcpus))],
    [ResourceNames.Memory, Quantity.parse(`${kubeReservedMemoryMiB(pods)}Mi`)],
    [ResourceNames.EphemeralStorage, Quantity.parse('1Gi')],
  ]);
  for (const [name, q] of parseList(kubelet?.kubeReserved)) reserved.set(name, q);
  return reserved;
}

/** system-reserved: exactly `kubelet.systemReserved` (none by default). */
export function systemReserved(kubelet?: KubeletConfiguration): ResourceList {
  return parseList(kubelet?.systemReserved);
}

/**
 * A threshold as a quantity: `10%` is 10 % of `capacity`, rounded up to a whole byte; anything
 * else is read as a quantity.
 */
export function evictionSignalQuantity(capacity: Quantity, threshold: string): Quantity {
  if (!threshold.endsWith('%')) return Quantity.parse(threshold);
  const hundredths = BigInt(Math.round(Number.parseFloat(threshold.slice(0, -1)) * 100));
  const units = capacity.toUnits() * hundredths;
  const bytes = (units + 9999n) / 10000n;
  return Quantity.fromUnits(bytes, QuantityFormats.BinarySI);
}

const SignalResources: ReadonlyArray<readonly [signal: string, resource: string]> = [
  ['memory.available', ResourceNames.Memory],
  ['nodefs.available', ResourceNames.EphemeralStorage],
];

/**
 * The eviction thresholds allocatable leaves room for: kubelet's defaults (memory.available
 * 100Mi, nodefs.available 10 %), replaced per signal by the larger of `evictionHard` and
 * `evictionSoft` where either sets it (percentages of the node's memory and ephemeral storage).
 * Upstream now counts evictionHard only; the soft threshold is kept here because pods are evicted
 * once it holds for its grace period, so packing up to it would evict them.
 */
export function evictionThreshold(
  memory: Quantity,
  storage: Quantity,
  kubelet?: KubeletConfiguration,
): ResourceList {
  const capacityOf = (resource: string) => (resource === ResourceNames.Memory ? memory : storage);
  const thresholds = new Map<string, Quantity>([
    [ResourceNames.Memory, Quantity.parse('100Mi')],
    [ResourceNames.EphemeralStorage, evictionSignalQuantity(storage, '10%')],
  ]);
  for (const [signal, resource] of SignalResources) {
    const set = [kubelet?.evictionHard?.[signal], kubelet?.evictionSoft?.[signal]].flatMap((t) =>
      t === undefined ? [] : [evictionSignalQuantity(capacityOf(resource), t)],
    );
    if (set.length === 0) continue;
    thresholds.set(
      resource,
      set.reduce((a, b) => (b.cmp(a) > 0 ? b : a)),
    );
  }
  return thresholds;
}

/**
 * The whole overhead of a node: kube-reserved, system-reserved and eviction thresholds.
 * kube-reserved memory is sized for `memoryOverheadPods` pods, by default the pods capacity.
 */
export function instanceTypeOverhead(
  capacity: ResourceList,
  vcpus: number,
  kubelet?: KubeletConfiguration,
  memoryOverheadPods?: number,
): InstanceTypeOverhead {
  const pods = memoryOverheadPods ?? Number(capacity.get(ResourceNames.Pods)?.toUnits() ?? 0n);
  return {
    kubeReserved: kubeReserved(vcpus, pods, kubelet),
    systemReserved: systemReserved(kubelet),
    evictionThreshold: evictionThreshold(
      capacity.get(ResourceNames.Memory) ?? Quantity.zero(),
      capacity.get(ResourceNames.EphemeralStorage) ?? Quantity.zero(),
      kubelet,
    ),
  };
}
