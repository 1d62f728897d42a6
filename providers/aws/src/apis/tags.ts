import { withRules } from '@nodewright/core/apis';
import { z } from 'zod';

/** Tag keys nodewright sets on instances itself; users may not set them. */
export const RestrictedTagRules: readonly {
  readonly key: string;
  readonly cel: string;
  readonly test: (k: string) => boolean;
}[] = [
  {
    key: 'eks:eks-cluster-name',
    cel: "k != 'eks:eks-cluster-name'",
    test: (k) => k === 'eks:eks-cluster-name',
  },
  {
    key: 'kubernetes.io/cluster/',
    cel: "!k.startsWith('kubernetes.io/cluster')",
    test: (k) => k.startsWith('kubernetes.io/cluster'),
  },
  {
    key: 'karpenter.sh/nodepool',
    cel: "k != 'karpenter.sh/nodepool'",
    test: (k) => k === 'karpenter.sh/nodepool',
  },
  {
    key: 'karpenter.sh/nodeclaim',
    cel: "k != 'karpenter.sh/nodeclaim'",
    test: (k) => k === 'karpenter.sh/nodeclaim',
  },
  {
    key: 'karpenter.k8s.aws/ec2nodeclass',
    cel: "k != 'karpenter.k8s.aws/ec2nodeclass'",
    test: (k) => k === 'karpenter.k8s.aws/ec2nodeclass',
  },
];

/** Tags for the instances, volumes and launch templates nodewright creates. */
export const ec2TagsSchema = withRules(z.record(z.string(), z.string()), [
  {
    cel: { rule: "self.all(k, k != '')", message: 'tag keys must not be empty' },
    check: (tags) => Object.keys(tags).includes('') && { path: [''] },
  },
  ...RestrictedTagRules.map((r) => ({
    cel: {
      rule: `self.all(k, ${r.cel})`,
      message: `tag ${r.key}${r.key.endsWith('/') ? '*' : ''} is restricted: nodewright sets it itself`,
    },
    check: (tags: Record<string, string>) =>
      Object.keys(tags).flatMap((k) => (r.test(k) ? [{ path: [k] }] : [])),
  })),
]).describe('Tags for the EC2 resources nodewright creates (instances, volumes, launch templates).');
