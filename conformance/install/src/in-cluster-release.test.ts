import { describe, expect, it } from 'vitest';
import { poolWorkload } from './in-cluster-release.js';

interface PoolShape {
  kind: string;
  metadata: { name: string };
  spec: { template: { spec: { nodeClassRef: unknown; requirements: unknown } } };
}
interface DeploymentShape {
  spec: {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        nodeSelector: Record<string, string>;
        affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: unknown[] } };
      };
    };
  };
}

describe('poolWorkload', () => {
  const [pool, deployment] = poolWorkload({
    pool: 'p',
    app: 'a',
    nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
    requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] }],
    replicas: 3,
  }) as unknown as [PoolShape, DeploymentShape];

  it('makes a NodePool over the NodeClass with the requirements given', () => {
    expect(pool.kind).toBe('NodePool');
    expect(pool.metadata.name).toBe('p');
    expect(pool.spec.template.spec.nodeClassRef).toEqual({
      group: 'karpenter.k8s.aws',
      kind: 'EC2NodeClass',
      name: 'default',
    });
    expect(pool.spec.template.spec.requirements).toEqual([
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot'] },
    ]);
  });

  it("puts the Deployment's pods only on that NodePool's nodes, one per node", () => {
    const spec = deployment.spec.template.spec;
    expect(deployment.spec.replicas).toBe(3);
    expect(spec.nodeSelector).toEqual({ 'karpenter.sh/nodepool': 'p' });
    const [term] = spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution;
    expect(term).toEqual({
      topologyKey: 'kubernetes.io/hostname',
      labelSelector: { matchLabels: { app: 'a' } },
    });
    expect(deployment.spec.selector.matchLabels).toEqual(deployment.spec.template.metadata.labels);
  });
});
