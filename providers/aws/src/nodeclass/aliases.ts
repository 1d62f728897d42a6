import type { AMIFamily } from '../apis/index.js';
import { amiFamilyOfAlias } from '../apis/index.js';
import { AwsLabels } from '../instancetype/labels.js';

/** A node selector requirement as `status.amis[].requirements` holds it. */
export interface AmiRequirement {
  readonly key: string;
  readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  readonly values?: string[];
}

/** EKS-optimized image variants, and the instance types each suits (upstream's). */
export const VariantRequirements = {
  standard: [
    { key: AwsLabels.InstanceAcceleratorCount, operator: 'DoesNotExist' },
    { key: AwsLabels.InstanceGpuCount, operator: 'DoesNotExist' },
  ],
  nvidia: [{ key: AwsLabels.InstanceGpuCount, operator: 'Exists' }],
  neuron: [{ key: AwsLabels.InstanceAcceleratorCount, operator: 'Exists' }],
} as const satisfies Record<string, readonly AmiRequirement[]>;
export type Variant = keyof typeof VariantRequirements;

/** One DescribeImages name pattern an alias expands to, for one architecture and variant. */
export interface AliasImageQuery {
  /** EC2 name filter, with `*` wildcards. */
  readonly namePattern: string;
  /** x86_64 or arm64, as EC2 reports `Architecture`. */
  readonly architecture: 'x86_64' | 'arm64';
  /** Requirement sets the image serves; AL2's GPU image serves both NVIDIA and Neuron types. */
  readonly variants: readonly Variant[];
  /** Extra requirements every image of this alias has (Windows: os windows). */
  readonly extra: readonly AmiRequirement[];
}

/** Owner of every EKS-optimized image. */
export const AliasImageOwner = 'amazon';

/**
 * The image name patterns an alias resolves through (DescribeImages with owner amazon, newest
 * CreationDate per architecture and variant), for one Kubernetes version such as `1.31`:
 * - al2023@v: `amazon-eks-node-al2023-<x86_64|arm64>-<standard|nvidia|neuron>-<k8s>-<v>`
 * - al2@v: `amazon-eks-node-<k8s>-<v>`, `amazon-eks-arm64-node-...`, `amazon-eks-gpu-node-...`
 * - bottlerocket@v: `bottlerocket-aws-k8s-<k8s>[-nvidia]-<x86_64|aarch64>-<v>-*`
 * - windows<year>@latest: `Windows_Server-<year>-English-Core-EKS_Optimized-<k8s>-*` (x86_64)
 * `latest` is the wildcard `v*`; any other version is matched exactly (`v20240807`, `v1.20.0`).
 * @throws Error naming the alias when its family is unknown.
 */
export function aliasImageQueries(alias: string, kubernetesVersion: string): AliasImageQuery[] {
  const family: AMIFamily | undefined = amiFamilyOfAlias(alias);
  const version = alias.slice(alias.indexOf('@') + 1);
  const v = version === 'latest' ? 'v*' : version;
  const k = kubernetesVersion;
  const q = (
    namePattern: string,
    architecture: 'x86_64' | 'arm64',
    variants: readonly Variant[],
    extra: readonly AmiRequirement[] = [],
  ): AliasImageQuery => ({ namePattern, architecture, variants, extra });
  switch (family) {
    case 'AL2023':
      return [
        q(`amazon-eks-node-al2023-x86_64-standard-${k}-${v}`, 'x86_64', ['standard']),
        q(`amazon-eks-node-al2023-x86_64-nvidia-${k}-${v}`, 'x86_64', ['nvidia']),
        q(`amazon-eks-node-al2023-x86_64-neuron-${k}-${v}`, 'x86_64', ['neuron']),
        q(`amazon-eks-node-al2023-arm64-standard-${k}-${v}`, 'arm64', ['standard']),
        q(`amazon-eks-node-al2023-arm64-nvidia-${k}-${v}`, 'arm64', ['nvidia']),
      ];
    case 'AL2':
      return [
        q(`amazon-eks-node-${k}-${v}`, 'x86_64', ['standard']),
        q(`amazon-eks-arm64-node-${k}-${v}`, 'arm64', ['standard']),
        q(`amazon-eks-gpu-node-${k}-${v}`, 'x86_64', ['nvidia', 'neuron']),
      ];
    case 'Bottlerocket':
      return [
        q(`bottlerocket-aws-k8s-${k}-x86_64-${v}-*`, 'x86_64', ['standard']),
        q(`bottlerocket-aws-k8s-${k}-aarch64-${v}-*`, 'arm64', ['standard']),
        q(`bottlerocket-aws-k8s-${k}-nvidia-x86_64-${v}-*`, 'x86_64', ['nvidia']),
        q(`bottlerocket-aws-k8s-${k}-nvidia-aarch64-${v}-*`, 'arm64', ['nvidia']),
      ];
    case 'Windows2019':
    case 'Windows2022':
    case 'Windows2025': {
      const year = family.slice('Windows'.length);
      return [
        q(
          `Windows_Server-${year}-English-Core-EKS_Optimized-${k}-*`,
          'x86_64',
          ['standard'],
          [{ key: 'kubernetes.io/os', operator: 'In', values: ['windows'] }],
        ),
      ];
    }
    default:
      throw new Error(`amiSelectorTerms alias ${alias}: unknown AMI family`);
  }
}
