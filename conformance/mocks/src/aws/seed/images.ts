import { hexOf } from './hash.js';

/** A seeded AMI as DescribeImages reports it. */
export interface ImageSeed {
  readonly id: string;
  readonly name: string;
  readonly architecture: 'x86_64' | 'arm64';
  readonly ownerId: string;
  /** `amazon` for AWS-published images; absent for the account's own. */
  readonly ownerAlias?: string;
  readonly creationDate: string;
  readonly description: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly deprecated?: boolean;
}

/** The account id the mock answers as (`self` in Owners). */
export const MOCK_ACCOUNT_ID = '123456789012';

/** The account EKS-optimized AMIs are published from in commercial regions. */
export const EKS_AMI_OWNER = '602401143452';
const BOTTLEROCKET_OWNER = '092701018921';

interface Release {
  readonly date: string;
  readonly al2023: string;
  readonly bottlerocket: string;
}

/**
 * Three releases, so "newest matching" selection is observable; the oldest is the one
 * examples/nodepools/aws/gpu.yaml pins (`al2023@v20250101`).
 */
const RELEASES: readonly Release[] = [
  { date: '2025-01-02T05:51:38.000Z', al2023: 'v20250101', bottlerocket: 'v1.30.0-7d9d1a1b' },
  { date: '2026-10-01T08:12:41.000Z', al2023: 'v20261001', bottlerocket: 'v1.49.0-6e2ef5c1' },
  { date: '2026-11-01T07:58:03.000Z', al2023: 'v20261101', bottlerocket: 'v1.50.0-4c5e6a1b' },
];

/**
 * EKS AMIs for one Kubernetes minor, named as AWS names them: AL2023 standard (x86_64, arm64)
 * and NVIDIA, Bottlerocket (x86_64, aarch64) and its NVIDIA variant, each in two releases; plus
 * one image of the account's own, tagged for discovery.
 */
export function seedImages(region: string, kubernetesVersion: string, cluster: string): ImageSeed[] {
  const out: ImageSeed[] = [];
  for (const r of RELEASES) {
    const al = (variant: string, arch: 'x86_64' | 'arm64'): ImageSeed =>
      image(region, {
        name: `amazon-eks-node-al2023-${arch}-${variant}-${kubernetesVersion}-${r.al2023}`,
        architecture: arch,
        ownerId: EKS_AMI_OWNER,
        ownerAlias: 'amazon',
        creationDate: r.date,
        description: `EKS-optimized Kubernetes node based on Amazon Linux 2023, (k8s: ${kubernetesVersion}, containerd)`,
        tags: {},
      });
    const br = (variant: string, arch: 'x86_64' | 'arm64'): ImageSeed =>
      image(region, {
        name: `bottlerocket-aws-k8s-${kubernetesVersion}${variant}-${arch === 'arm64' ? 'aarch64' : 'x86_64'}-${r.bottlerocket}`,
        architecture: arch,
        ownerId: BOTTLEROCKET_OWNER,
        ownerAlias: 'amazon',
        creationDate: r.date,
        description: `bottlerocket-aws-k8s-${kubernetesVersion}${variant}`,
        tags: {},
      });
    out.push(
      al('standard', 'x86_64'),
      al('standard', 'arm64'),
      al('nvidia', 'x86_64'),
      br('', 'x86_64'),
      br('', 'arm64'),
      br('-nvidia', 'x86_64'),
    );
  }
  out.push(
    image(region, {
      name: `${cluster}-custom-al2023-${kubernetesVersion}`,
      architecture: 'x86_64',
      ownerId: MOCK_ACCOUNT_ID,
      creationDate: '2026-11-15T12:00:00.000Z',
      description: 'custom node image',
      tags: { 'karpenter.sh/discovery': cluster },
    }),
  );
  return out;
}

function image(region: string, seed: Omit<ImageSeed, 'id'>): ImageSeed {
  return { id: `ami-0${hexOf(`${region}/${seed.name}`, 16)}`, ...seed };
}
