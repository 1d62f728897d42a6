import type { Instance } from '@aws-sdk/client-ec2';
import { CapacityTypes } from '@nodewright/core/apis';

/** The facts about one EC2 instance nodewright acts on. */
export interface AwsInstance {
  readonly id: string;
  readonly instanceType: string;
  readonly zone: string;
  /** The zone's account-independent id (`use1-az1`), when EC2 reports it. */
  readonly zoneId: string | undefined;
  readonly capacityType: string;
  readonly imageId: string | undefined;
  /** pending, running, stopping, stopped, shutting-down, terminated. */
  readonly state: string;
  readonly launchTime: number | undefined;
  readonly subnetId: string | undefined;
  readonly securityGroupIds: readonly string[];
  readonly architecture: string | undefined;
  readonly tags: Readonly<Record<string, string>>;
}

/** Instance states in which an instance still exists for nodewright (not going away). */
export const LiveStates = ['pending', 'running', 'stopping', 'stopped'] as const;

/** The EC2 view of an SDK Instance; undefined when it lacks an id. */
export function toAwsInstance(i: Instance): AwsInstance | undefined {
  if (i.InstanceId === undefined) return undefined;
  const tags: Record<string, string> = {};
  for (const t of i.Tags ?? []) if (t.Key !== undefined) tags[t.Key] = t.Value ?? '';
  const sgs = new Set<string>();
  for (const g of i.SecurityGroups ?? []) if (g.GroupId !== undefined) sgs.add(g.GroupId);
  for (const ni of i.NetworkInterfaces ?? [])
    for (const g of ni.Groups ?? []) if (g.GroupId !== undefined) sgs.add(g.GroupId);
  return {
    id: i.InstanceId,
    instanceType: i.InstanceType ?? '',
    zone: i.Placement?.AvailabilityZone ?? '',
    zoneId: i.Placement?.AvailabilityZoneId,
    capacityType:
      i.InstanceLifecycle === 'spot'
        ? CapacityTypes.Spot
        : i.CapacityReservationId !== undefined
          ? CapacityTypes.Reserved
          : CapacityTypes.OnDemand,
    imageId: i.ImageId,
    state: i.State?.Name ?? 'pending',
    launchTime: i.LaunchTime === undefined ? undefined : new Date(i.LaunchTime).getTime(),
    subnetId: i.SubnetId,
    securityGroupIds: [...sgs].sort(),
    architecture: i.Architecture,
    tags,
  };
}

/** `kubernetes.io/arch` of an EC2 architecture. */
export function archLabel(architecture: string | undefined): string | undefined {
  if (architecture === 'x86_64') return 'amd64';
  if (architecture === 'arm64') return 'arm64';
  return architecture;
}
