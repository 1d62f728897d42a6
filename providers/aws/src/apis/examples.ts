import type { EC2NodeClassInput } from './ec2nodeclass.js';

/** A valid EC2NodeClass to start tests from; each call returns a fresh object. */
export function exampleEC2NodeClass(): EC2NodeClassInput {
  return {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name: 'default' },
    spec: {
      role: 'KarpenterNodeRole-my-cluster',
      amiSelectorTerms: [{ alias: 'al2023@latest' }],
      subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'my-cluster' } }],
      securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'my-cluster' } }],
    },
  };
}
