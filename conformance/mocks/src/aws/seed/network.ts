import { hexOf } from './hash.js';
import type { RegionFacts } from './regions.js';

/** A seeded subnet; `availableIps` is the starting AvailableIpAddressCount. */
export interface SubnetSeed {
  readonly id: string;
  readonly vpcId: string;
  readonly zone: string;
  readonly zoneId: string;
  readonly cidr: string;
  readonly availableIps: number;
  readonly tags: Readonly<Record<string, string>>;
}

export interface SecurityGroupSeed {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly vpcId: string;
  readonly tags: Readonly<Record<string, string>>;
}

/**
 * The cluster's VPC: one private /19 per zone tagged for discovery and `network.example.com/tier:
 * private` (8187 usable addresses: AWS reserves 5 per subnet), and one untagged public /20 that
 * selectors must not pick.
 */
export function seedSubnets(region: RegionFacts, cluster: string): SubnetSeed[] {
  const vpcId = vpcIdFor(region, cluster);
  const privateSubnets = region.zones.map((z, i) => ({
    id: `subnet-0${hexOf(`${cluster}/${z.name}/private`, 16)}`,
    vpcId,
    zone: z.name,
    zoneId: z.id,
    cidr: `10.0.${i * 32}.0/19`,
    availableIps: 8187,
    tags: {
      Name: `${cluster}-private-${z.name}`,
      'karpenter.sh/discovery': cluster,
      'kubernetes.io/role/internal-elb': '1',
      // The tier tag examples/nodepools/aws/gpu.yaml selects subnets by.
      'network.example.com/tier': 'private',
    },
  }));
  const [first] = region.zones;
  const publicSubnet = first
    ? [
        {
          id: `subnet-0${hexOf(`${cluster}/${first.name}/public`, 16)}`,
          vpcId,
          zone: first.name,
          zoneId: first.id,
          cidr: '10.0.128.0/20',
          availableIps: 4091,
          tags: { Name: `${cluster}-public-${first.name}`, 'kubernetes.io/role/elb': '1' },
        },
      ]
    : [];
  return [...privateSubnets, ...publicSubnet];
}

/** The security group id examples/nodepools/aws/gpu.yaml names. */
export const GPU_EXAMPLE_SECURITY_GROUP = 'sg-0123456789abcdef0';

/**
 * The EKS cluster security group and a node group, both tagged for discovery, the VPC default,
 * and the GPU example's group (by id only).
 */
export function seedSecurityGroups(region: RegionFacts, cluster: string): SecurityGroupSeed[] {
  const vpcId = vpcIdFor(region, cluster);
  const sg = (key: string) => `sg-0${hexOf(`${cluster}/${key}`, 16)}`;
  return [
    {
      id: sg('cluster'),
      name: `eks-cluster-sg-${cluster}-1234567890`,
      description:
        'EKS created security group applied to ENI that is attached to EKS Control Plane master nodes, as well as any managed workloads.',
      vpcId,
      tags: {
        'karpenter.sh/discovery': cluster,
        [`kubernetes.io/cluster/${cluster}`]: 'owned',
        'aws:eks:cluster-name': cluster,
      },
    },
    {
      id: sg('node'),
      name: `${cluster}-node`,
      description: 'Communication between all nodes in the cluster',
      vpcId,
      tags: { 'karpenter.sh/discovery': cluster, Name: `${cluster}-node` },
    },
    { id: sg('default'), name: 'default', description: 'default VPC security group', vpcId, tags: {} },
    {
      // The literal id examples/nodepools/aws/gpu.yaml selects; not tagged for discovery.
      id: GPU_EXAMPLE_SECURITY_GROUP,
      name: `${cluster}-gpu-nodes`,
      description: 'GPU nodes (examples/nodepools/aws/gpu.yaml)',
      vpcId,
      tags: { Name: `${cluster}-gpu-nodes` },
    },
  ];
}

function vpcIdFor(region: RegionFacts, cluster: string): string {
  return `vpc-0${hexOf(`${region.name}/${cluster}`, 16)}`;
}
