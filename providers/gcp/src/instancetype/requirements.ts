import { CapacityTypes, Labels } from '@nodewright/core/apis';
import { Requirement, Requirements } from '@nodewright/core/scheduling';
import type { GceMachineTypeFacts } from './facts.js';
import { GcpLabels, parseMachineTypeName } from './labels.js';

const inOrAbsent = (key: string, value: string | number | undefined): Requirement =>
  value === undefined || value === ''
    ? Requirement.create(key, 'DoesNotExist')
    : Requirement.create(key, 'In', [String(value)]);

/** Both capacity types GCE sells every predefined machine type as. */
export const GceCapacityTypes = [CapacityTypes.Spot, CapacityTypes.OnDemand] as const;

/**
 * The requirements (labels) of a machine type: the well-known instance type, arch, os, zones,
 * region and capacity types, and every `karpenter.k8s.gcp/instance-*` label, DoesNotExist for
 * those the type lacks (GPU, local SSD, size of the shared-core types).
 */
export function instanceTypeRequirements(
  facts: GceMachineTypeFacts,
  zones: readonly string[],
  region: string | undefined,
): Requirements {
  const parts = parseMachineTypeName(facts.name);
  const requirements = new Requirements([
    Requirement.create(Labels.InstanceType, 'In', [facts.name]),
    Requirement.create(Labels.Arch, 'In', [facts.architecture]),
    Requirement.create(Labels.OS, 'In', ['linux']),
    Requirement.create(Labels.Zone, 'In', [...zones]),
    Requirement.create(Labels.CapacityType, 'In', [...GceCapacityTypes]),
    Requirement.create(Labels.WindowsBuild, 'DoesNotExist'),
    Requirement.create(GcpLabels.InstanceFamily, 'In', [parts.family]),
    inOrAbsent(GcpLabels.InstanceShape, parts.shape),
    inOrAbsent(GcpLabels.InstanceSize, parts.size),
    inOrAbsent(GcpLabels.InstanceGeneration, parts.generation),
    Requirement.create(GcpLabels.InstanceCpu, 'In', [String(facts.vcpus)]),
    Requirement.create(GcpLabels.InstanceMemory, 'In', [String(facts.memoryMiB)]),
    inOrAbsent(GcpLabels.InstanceGpuName, facts.gpu?.name),
    inOrAbsent(GcpLabels.InstanceGpuCount, facts.gpu?.count),
    inOrAbsent(GcpLabels.InstanceLocalSsd, facts.localSsdGiB),
  ]);
  if (region !== undefined) requirements.add(Requirement.create(Labels.Region, 'In', [region]));
  return requirements;
}
