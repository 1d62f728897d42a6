import { Quantity, type ResourceList, ResourceNames } from '@nodewright/core/scheduling';
import type { Disk, KubeletConfiguration } from '../apis/index.js';
import type { GceMachineTypeFacts } from './facts.js';
import { NvidiaGpuResource } from './labels.js';

/** The GCENodeClass fields that shape an instance type's capacity and overhead. */
export interface NodeShapeSettings {
  readonly kubelet?: KubeletConfiguration | undefined;
  readonly disks?: readonly Disk[] | undefined;
}

/** Share of a VM's memory the guest never sees (firmware, kernel), as GKE nodes report it. */
export const VmMemoryOverheadPercent = 0.07;
/** GKE's default pod density. */
export const DefaultMaxPods = 110;
/** The boot disk when the NodeClass lists none (GKE's default). */
export const DefaultBootDiskGiB = 100;

/** Memory the node reports: the machine's minus the VM overhead, rounded up to a MiB. */
export function memoryCapacityMiB(memoryMiB: number): number {
  return memoryMiB - Math.ceil(memoryMiB * VmMemoryOverheadPercent);
}

/** Pods the node admits: kubelet maxPods (110), capped at podsPerCore x vCPUs when set. */
export function maxPods(vcpus: number, kubelet?: KubeletConfiguration): number {
  const pods = kubelet?.maxPods ?? DefaultMaxPods;
  const perCore = kubelet?.podsPerCore ?? 0;
  return perCore > 0 ? Math.min(pods, perCore * vcpus) : pods;
}

/** cpu, memory, pods, ephemeral-storage (the boot disk) and nvidia.com/gpu of a node of this type. */
export function instanceTypeCapacity(facts: GceMachineTypeFacts, settings: NodeShapeSettings): ResourceList {
  const boot = settings.disks?.find((d) => d.boot === true)?.sizeGiB ?? DefaultBootDiskGiB;
  const capacity = new Map<string, Quantity>([
    [ResourceNames.CPU, Quantity.parse(String(facts.vcpus))],
    [ResourceNames.Memory, Quantity.parse(`${memoryCapacityMiB(facts.memoryMiB)}Mi`)],
    [ResourceNames.Pods, Quantity.parse(String(maxPods(facts.vcpus, settings.kubelet)))],
    [ResourceNames.EphemeralStorage, Quantity.parse(`${boot}Gi`)],
  ]);
  if (facts.gpu !== undefined && facts.gpu.count > 0) {
    capacity.set(NvidiaGpuResource, Quantity.parse(String(facts.gpu.count)));
  }
  return capacity;
}
