import { CapacityTypes, Labels, type NodeClaim, NodeClaimApiVersion } from '@nodewright/core/apis';
import { type InstanceType, newInstanceType, newOffering } from '@nodewright/core/cloudprovider';
import { parseResourceList, Requirement, Requirements } from '@nodewright/core/scheduling';
import { type EC2NodeClass, ec2NodeClassSchema, exampleEC2NodeClass } from '../../apis/index.js';
import type { AwsInstanceTypes } from '../../ports.js';

/** Zones, subnets and the AMI every fixture NodeClass resolved. */
export const Zones = ['us-west-2a', 'us-west-2b'] as const;
export const SubnetOf: Record<string, string> = { 'us-west-2a': 'subnet-a', 'us-west-2b': 'subnet-b' };

/** A Ready EC2NodeClass named `default` with resolved status (subnets, SGs, AMIs, profile). */
export function readyNodeClass(patch: (nc: EC2NodeClass) => void = () => {}): EC2NodeClass {
  const nc = ec2NodeClassSchema.parse(exampleEC2NodeClass());
  nc.status = {
    subnets: Zones.map((zone) => ({ id: SubnetOf[zone]!, zone, zoneID: `usw2-${zone.slice(-1)}z` })),
    securityGroups: [{ id: 'sg-1', name: 'nodes' }],
    amis: [
      { id: 'ami-arm', requirements: [{ key: Labels.Arch, operator: 'In', values: ['arm64'] }] },
      { id: 'ami-amd', requirements: [{ key: Labels.Arch, operator: 'In', values: ['amd64'] }] },
    ],
    instanceProfile: 'profile-nodes',
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        lastTransitionTime: '2026-01-01T00:00:00Z',
        reason: 'Ready',
        message: '',
      },
    ],
  };
  patch(nc);
  return nc;
}

/**
 * An instance type offered in both zones: on-demand at `price`, spot at `spotPrice` (or none),
 * with `pods` pods and 8 cpu / 32Gi.
 */
export function instanceType(
  name: string,
  price: number,
  options: { spotPrice?: number; arch?: string; pods?: number; cpu?: string; unavailable?: string[] } = {},
): InstanceType {
  const arch = options.arch ?? 'amd64';
  const offerings = Zones.flatMap((zone) => [
    newOffering({
      zone,
      capacityType: CapacityTypes.OnDemand,
      price,
      available: !options.unavailable?.includes(`on-demand:${zone}`),
    }),
    ...(options.spotPrice === undefined
      ? []
      : [
          newOffering({
            zone,
            capacityType: CapacityTypes.Spot,
            price: options.spotPrice,
            available: !options.unavailable?.includes(`spot:${zone}`),
          }),
        ]),
  ]);
  return newInstanceType({
    name,
    requirements: new Requirements([
      Requirement.create(Labels.InstanceType, 'In', [name]),
      Requirement.create(Labels.Arch, 'In', [arch]),
      Requirement.create(Labels.OS, 'In', ['linux']),
      Requirement.create('karpenter.k8s.aws/instance-family', 'In', [name.split('.')[0] ?? name]),
      Requirement.create(Labels.Zone, 'In', [...Zones]),
      Requirement.create(
        Labels.CapacityType,
        'In',
        options.spotPrice === undefined
          ? [CapacityTypes.OnDemand]
          : [CapacityTypes.OnDemand, CapacityTypes.Spot],
      ),
    ]),
    offerings,
    capacity: parseResourceList({
      cpu: options.cpu ?? '8',
      memory: '32Gi',
      pods: String(options.pods ?? 58),
    }),
  });
}

/** A fake AwsInstanceTypes serving a fixed list, recording the NodeClasses it was asked about. */
export function fakeInstanceTypes(types: readonly InstanceType[]): AwsInstanceTypes & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    forNodeClass: async (nc) => {
      asked.push(nc.metadata.name ?? '');
      return [...types];
    },
  };
}

/** A NodeClaim of NodePool `default` for EC2NodeClass `default`. */
export function nodeClaim(
  name: string,
  requirements: NodeClaim['spec']['requirements'] = [],
  patch: (c: NodeClaim) => void = () => {},
): NodeClaim {
  const claim = {
    apiVersion: NodeClaimApiVersion,
    kind: 'NodeClaim',
    metadata: { name, labels: { [Labels.NodePool]: 'default', 'team.example.com/owner': 'web' } },
    spec: {
      requirements,
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      expireAfter: '720h',
      resources: { requests: { cpu: '1', memory: '1Gi' } },
      taints: [{ key: 'dedicated', value: 'web', effect: 'NoSchedule' }],
    },
  } as NodeClaim;
  patch(claim);
  return claim;
}

/** A logger that keeps what it is told. */
export function recordingLogger(): {
  lines: { level: string; fields: unknown; message: string }[];
  debug: (fields: unknown, message?: string) => void;
  info: (fields: unknown, message?: string) => void;
  warn: (fields: unknown, message?: string) => void;
  error: (fields: unknown, message?: string) => void;
} {
  const lines: { level: string; fields: unknown; message: string }[] = [];
  const at = (level: string) => (fields: unknown, message?: string) => {
    lines.push({ level, fields, message: message ?? '' });
  };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
