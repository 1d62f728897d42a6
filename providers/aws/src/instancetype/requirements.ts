import { Labels } from '@nodewright/core/apis';
import { Requirement, Requirements } from '@nodewright/core/scheduling';
import type { AMIFamily } from '../apis/index.js';
import type { InstanceTypeFacts } from './facts.js';
import { AwsLabels, labelCase, parseInstanceTypeName } from './labels.js';

/** A zone an instance type is offered in, with its zone ID when the subnet status has it. */
export interface ZoneInfo {
  readonly zone: string;
  readonly zoneID?: string | undefined;
}

/** `kubernetes.io/os` values for nodes of this family: Windows AMIs run only on amd64. */
export function operatingSystems(amiFamily: AMIFamily | undefined, architecture: string): string[] {
  if (amiFamily?.startsWith('Windows')) return architecture === 'amd64' ? ['windows'] : [];
  return ['linux'];
}

const inOrAbsent = (key: string, value: string | number | boolean | undefined): Requirement =>
  value === undefined || value === ''
    ? Requirement.create(key, 'DoesNotExist')
    : Requirement.create(key, 'In', [String(value)]);

/**
 * The requirements (labels) of an instance type as upstream defines them: the well-known
 * instance-type, arch, os, zone, region and capacity-type, and every `karpenter.k8s.aws/*`
 * label, with DoesNotExist for those the type lacks so that `DoesNotExist` selectors match
 * and `In` ones do not. GPU labels are set only for a single kind of GPU, as upstream.
 */
export function instanceTypeRequirements(
  facts: InstanceTypeFacts,
  zones: readonly ZoneInfo[],
  options: { amiFamily?: AMIFamily | undefined; region?: string | undefined },
): Requirements {
  const parts = parseInstanceTypeName(facts.name);
  const gpu = facts.gpus.length === 1 ? facts.gpus[0] : undefined;
  const zoneIDs = zones.flatMap((z) => (z.zoneID === undefined ? [] : [z.zoneID]));
  const requirements = new Requirements([
    Requirement.create(Labels.InstanceType, 'In', [facts.name]),
    Requirement.create(Labels.Arch, 'In', [facts.architecture]),
    Requirement.create(Labels.OS, 'In', operatingSystems(options.amiFamily, facts.architecture)),
    Requirement.create(
      Labels.Zone,
      'In',
      zones.map((z) => z.zone),
    ),
    Requirement.create(Labels.CapacityType, 'In', [...facts.capacityTypes]),
    Requirement.create(Labels.WindowsBuild, 'DoesNotExist'),
    Requirement.create(AwsLabels.InstanceCpu, 'In', [String(facts.vcpus)]),
    Requirement.create(AwsLabels.InstanceMemory, 'In', [String(facts.memoryMiB)]),
    inOrAbsent(AwsLabels.InstanceCategory, parts.category),
    inOrAbsent(AwsLabels.InstanceFamily, parts.family),
    inOrAbsent(AwsLabels.InstanceGeneration, parts.generation),
    inOrAbsent(AwsLabels.InstanceSize, parts.size),
    inOrAbsent(AwsLabels.InstanceCpuManufacturer, facts.cpuManufacturer),
    inOrAbsent(AwsLabels.InstanceHypervisor, facts.hypervisor),
    inOrAbsent(AwsLabels.InstanceNetworkBandwidth, facts.networkBandwidthMbps),
    inOrAbsent(AwsLabels.InstanceEbsBandwidth, facts.ebsBandwidthMbps),
    inOrAbsent(AwsLabels.InstanceEncryptionInTransitSupported, facts.encryptionInTransitSupported),
    inOrAbsent(AwsLabels.InstanceLocalNvme, facts.localNvmeGB),
    inOrAbsent(AwsLabels.InstanceGpuName, gpu && labelCase(gpu.name)),
    inOrAbsent(AwsLabels.InstanceGpuManufacturer, gpu && labelCase(gpu.manufacturer)),
    inOrAbsent(AwsLabels.InstanceGpuCount, gpu?.count),
    inOrAbsent(AwsLabels.InstanceGpuMemory, gpu?.memoryMiB),
    inOrAbsent(AwsLabels.InstanceAcceleratorName, facts.neuron && labelCase(facts.neuron.name)),
    inOrAbsent(AwsLabels.InstanceAcceleratorManufacturer, facts.neuron && 'aws'),
    inOrAbsent(AwsLabels.InstanceAcceleratorCount, facts.neuron?.count),
    // Upstream: true for the `-flex` families (c7i-flex, m7i-flex, ...), false for the others.
    Requirement.create(AwsLabels.InstanceCapabilityFlex, 'In', [String(parts.family.includes('-flex'))]),
    inOrAbsent(AwsLabels.InstanceCpuSustainedClockSpeedMhz, facts.cpuSustainedClockSpeedMhz),
    // No capacity reservations are modelled, so no type is in one.
    Requirement.create(AwsLabels.CapacityReservationId, 'DoesNotExist'),
    Requirement.create(AwsLabels.CapacityReservationType, 'DoesNotExist'),
  ]);
  if (options.region !== undefined)
    requirements.add(Requirement.create(Labels.Region, 'In', [options.region]));
  requirements.add(
    zoneIDs.length > 0
      ? Requirement.create(AwsLabels.ZoneId, 'In', zoneIDs)
      : Requirement.create(AwsLabels.ZoneId, 'DoesNotExist'),
  );
  return requirements;
}
