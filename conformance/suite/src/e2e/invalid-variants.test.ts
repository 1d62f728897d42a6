import { describe, expect, it } from 'vitest';
import { invalidNodePoolVariants } from './invalid-variants.js';
import { nodePoolManifest } from './manifests.js';

describe('invalidNodePoolVariants', () => {
  const base = nodePoolManifest({
    name: 'base',
    nodeClassRef: { group: 'karpenter.kwok.sh', kind: 'KWOKNodeClass', name: 'default' },
    requirements: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }],
  }) as Record<string, unknown>;

  it('breaks exactly one thing per variant and leaves the base untouched', () => {
    const before = structuredClone(base);
    const variants = invalidNodePoolVariants(base);
    expect(base).toEqual(before);
    expect(new Set(variants.map((v) => v.problem)).size).toBe(variants.length);
    for (const v of variants) expect(v.manifest).not.toEqual(base);
    const weight = variants.find((v) => v.field === 'spec.weight');
    expect(weight?.manifest).toMatchObject({ spec: { weight: 101 } });
    const operator = variants[0]?.manifest as { spec: { template: { spec: { requirements: unknown[] } } } };
    expect(operator.spec.template.spec.requirements).toEqual([
      { key: 'kubernetes.io/os', operator: 'In', values: ['linux'] },
      { key: 'example.com/team', operator: 'Equals', values: ['a'] },
    ]);
  });

  it('adds the fields a minimal manifest lacks', () => {
    const variants = invalidNodePoolVariants({
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'x' },
    });
    const label = variants.find((v) => v.field === 'spec.template.metadata.labels');
    expect(label?.manifest).toMatchObject({
      spec: { template: { metadata: { labels: { 'karpenter.sh/custom': 'x' } } } },
    });
  });
});
