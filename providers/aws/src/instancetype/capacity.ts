import { Quantity, type ResourceList, ResourceNames } from '@nodewright/core/scheduling';
import type { AMIFamily, BlockDeviceMapping, KubeletConfiguration } from '../apis/index.js';
import type { InstanceTypeFacts } from './facts.js';
import { AwsResources } from './labels.js';

/** The EC2NodeClass fields that shape an instance type's capacity and overhead. */
export interface NodeShapeSettings {
  readonly amiFamily?: AMIFamily | undefined;
  readonly kubelet?: KubeletConfiguration | undefined;
  readonly blockDeviceMappings?: readonly BlockDeviceMapping[] | undefined;
  readonly instanceStorePolicy?: 'RAID0' | undefined;
}

/** Share of memory the hypervisor and firmware keep that DescribeInstanceTypes still reports (upstream's default). */
export const VmMemoryOverheadPercent = 0.075;
/** Graviton kernels reserve this much CMA memory on top (upstream). */
export const Arm64CmaReservedMiB = 64;

/**
 * Memory a node reports, in MiB: EC2's figure (minus 64 MiB CMA on arm64) minus 7.5 % VM
 * overhead rounded up to a whole MiB. m5.large: 8192 - ceil(614.4) = 7577.
 */
export function memoryCapacityMiB(facts: Pick<InstanceTypeFacts, 'memoryMiB' | 'architecture'>): number {
  const size = facts.memoryMiB - (facts.architecture === 'arm64' ? Arm64CmaReservedMiB : 0);
  return size - Math.ceil(size * VmMemoryOverheadPercent);
}

/** The VPC CNI's pod limit: every ENI but its primary address serves pods, plus 2 host-network pods. */
export function eniLimitedPods(facts: Pick<InstanceTypeFacts, 'maxENIs' | 'ipv4PerENI'>): number {
  if (facts.maxENIs <= 0) return 0;
  return facts.maxENIs * (facts.ipv4PerENI - 1) + 2;
}

/** Kubelet's own default when pod density is not ENI-limited (Windows). */
export const DefaultMaxPods = 110;

/**
 * The pods a node admits: kubelet `maxPods` when set; else ENI-limited, except Windows (110);
 * then capped at `podsPerCore x vCPUs` when podsPerCore > 0 (not on Bottlerocket, whose kubelet
 * ignores it, as upstream).
 */
export function maxPods(
  facts: Pick<InstanceTypeFacts, 'maxENIs' | 'ipv4PerENI' | 'vcpus'>,
  settings: NodeShapeSettings,
): number {
  const family = settings.amiFamily;
  let pods =
    settings.kubelet?.maxPods ?? (family?.startsWith('Windows') ? DefaultMaxPods : eniLimitedPods(facts));
  const perCore = settings.kubelet?.podsPerCore ?? 0;
  if (perCore > 0 && family !== 'Bottlerocket') pods = Math.min(pods, perCore * facts.vcpus);
  return pods;
}

/**
 * The pod count kube-reserved memory is sized for. AL2, AL2023 and Custom images size it for the
 * ENI-limited count even when kubelet `maxPods` differs (their bootstrap computes it that way,
 * as upstream models); Bottlerocket and Windows size it for the pods the node admits.
 */
export function memoryOverheadPods(
  facts: Pick<InstanceTypeFacts, 'maxENIs' | 'ipv4PerENI' | 'vcpus'>,
  settings: NodeShapeSettings,
): number {
  const family = settings.amiFamily;
  return family === 'Bottlerocket' || family?.startsWith('Windows')
    ? maxPods(facts, settings)
    : eniLimitedPods(facts);
}

/** The device each AMI family puts the kubelet's filesystem on, and its default size. */
const EphemeralDevice: Readonly<Record<AMIFamily, { device: string; size: string } | undefined>> = {
  AL2: { device: '/dev/xvda', size: '20Gi' },
  AL2023: { device: '/dev/xvda', size: '20Gi' },
  Bottlerocket: { device: '/dev/xvdb', size: '20Gi' },
  Windows2019: { device: '/dev/sda1', size: '50Gi' },
  Windows2022: { device: '/dev/sda1', size: '50Gi' },
  Windows2025: { device: '/dev/sda1', size: '50Gi' },
  Custom: undefined,
};
export const DefaultEphemeralStorage = '20Gi';

/**
 * The node's ephemeral storage: all NVMe instance store with `instanceStorePolicy: RAID0`;
 * else the `rootVolume` mapping's size; else (Custom) the last mapping's, or (others) the
 * mapping on the family's kubelet device; else the family default (20Gi; 50Gi for Windows).
 */
export function ephemeralStorage(
  facts: Pick<InstanceTypeFacts, 'localNvmeGB'>,
  settings: NodeShapeSettings,
): Quantity {
  if (settings.instanceStorePolicy === 'RAID0' && facts.localNvmeGB !== undefined) {
    return Quantity.parse(`${facts.localNvmeGB}G`);
  }
  const family = settings.amiFamily ?? 'AL2023';
  const mappings = settings.blockDeviceMappings ?? [];
  const defaults = EphemeralDevice[family];
  if (mappings.length > 0) {
    const root = mappings.find((m) => m.rootVolume === true);
    if (root?.ebs?.volumeSize !== undefined) return Quantity.parse(root.ebs.volumeSize);
    const chosen =
      defaults === undefined ? mappings.at(-1) : mappings.find((m) => m.deviceName === defaults.device);
    if (chosen?.ebs?.volumeSize !== undefined) return Quantity.parse(chosen.ebs.volumeSize);
  }
  return Quantity.parse(defaults?.size ?? DefaultEphemeralStorage);
}

/** GPUs of one manufacturer, summed (`NVIDIA`, `AMD`). */
function gpuCount(facts: Pick<InstanceTypeFacts, 'gpus'>, manufacturer: string): number {
  return facts.gpus
    .filter((g) => g.manufacturer.toLowerCase() === manufacturer)
    .reduce((n, g) => n + g.count, 0);
}

/**
 * What a node of this type reports as capacity: cpu, memory (after VM overhead), pods,
 * ephemeral-storage, and GPUs/Neuron devices when it has any.
 */
export function instanceTypeCapacity(facts: InstanceTypeFacts, settings: NodeShapeSettings): ResourceList {
  const capacity = new Map<string, Quantity>([
    [ResourceNames.CPU, Quantity.fromUnits(facts.vcpus)],
    [ResourceNames.Memory, Quantity.parse(`${memoryCapacityMiB(facts)}Mi`)],
    [ResourceNames.Pods, Quantity.fromUnits(maxPods(facts, settings))],
    [ResourceNames.EphemeralStorage, ephemeralStorage(facts, settings)],
  ]);
  const nvidia = gpuCount(facts, 'nvidia');
  const amd = gpuCount(facts, 'amd');
  if (nvidia > 0) capacity.set(AwsResources.NvidiaGpu, Quantity.fromUnits(nvidia));
  if (amd > 0) capacity.set(AwsResources.AmdGpu, Quantity.fromUnits(amd));
  if (facts.neuron !== undefined)
    capacity.set(AwsResources.AwsNeuron, Quantity.fromUnits(facts.neuron.count));
  return capacity;
}
