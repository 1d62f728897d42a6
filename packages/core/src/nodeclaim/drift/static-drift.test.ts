import { describe, expect, it } from 'vitest';
import { nodePoolTemplateHash } from '../../apis/v1/nodepool-hash.js';
import { aNodePool } from '../../testing/nodepool-builder.js';
import { driftBasis, driftLabels, StaticDriftReasons, staticDrift } from './static-drift.js';

const pool = aNodePool({ spec: { template: { metadata: { labels: { team: 'a' } } } } });
const hash = nodePoolTemplateHash(pool);
const amd64 = { 'kubernetes.io/arch': 'amd64', 'karpenter.sh/capacity-type': 'spot' };

describe('staticDrift', () => {
  it('is undefined while the hash matches and the requirements admit the labels', () => {
    expect(staticDrift({ 'karpenter.sh/nodepool-hash': hash }, amd64, pool)).toBeUndefined();
  });

  it('reports NodePoolDrifted when the template hash changed, for our hash version or none only', () => {
    const edited = aNodePool({ spec: { template: { metadata: { labels: { team: 'b' } } } } });
    expect(staticDrift({ 'karpenter.sh/nodepool-hash': hash }, amd64, edited)).toEqual({
      reason: StaticDriftReasons.NodePoolDrifted,
      message: `NodePool default template changed since launch (karpenter.sh/nodepool-hash ${hash}, now ${nodePoolTemplateHash(edited)})`,
    });
    const karpenters = { 'karpenter.sh/nodepool-hash': '42', 'karpenter.sh/nodepool-hash-version': 'v3' };
    expect(staticDrift(karpenters, amd64, edited)).toBeUndefined();
    expect(staticDrift(undefined, amd64, edited)).toBeUndefined();
  });

  it('reports RequirementsDrifted on a conflict, but lets well-known labels the node lacks pass', () => {
    const arm = aNodePool({
      spec: {
        template: {
          spec: { requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] }] },
        },
      },
    });
    expect(staticDrift(undefined, amd64, arm)).toEqual({
      reason: StaticDriftReasons.RequirementsDrifted,
      message:
        "NodePool default requirements no longer match the node's labels: key kubernetes.io/arch: In [arm64] does not intersect In [amd64]",
    });
    // A claim launched but not yet hydrated with its arch is not drifted for lacking it.
    expect(staticDrift(undefined, { 'karpenter.sh/capacity-type': 'spot' }, arm)).toBeUndefined();
    const custom = aNodePool({
      spec: {
        template: { spec: { requirements: [{ key: 'example.com/team', operator: 'In', values: ['a'] }] } },
      },
    });
    expect(staticDrift(undefined, amd64, custom)?.reason).toBe(StaticDriftReasons.RequirementsDrifted);
  });

  it('reads a label under its beta alias and gives the same answer from a shared basis', () => {
    const arm = aNodePool({
      spec: {
        template: {
          spec: { requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] }] },
        },
      },
    });
    const beta = { 'beta.kubernetes.io/arch': 'amd64', 'example.com/other': 'x' };
    const found = staticDrift(undefined, beta, arm);
    expect(found?.reason).toBe(StaticDriftReasons.RequirementsDrifted);
    const basis = driftBasis(arm);
    const cases: Record<string, string>[] = [beta, amd64, { 'kubernetes.io/arch': 'arm64' }, {}];
    for (const labels of cases)
      for (const annotations of [undefined, { 'karpenter.sh/nodepool-hash': hash }])
        expect(staticDrift(annotations, labels, arm, basis)).toEqual(staticDrift(annotations, labels, arm));
  });

  it('checks the hash before the requirements', () => {
    const both = aNodePool({
      spec: {
        template: {
          metadata: { labels: { team: 'b' } },
          spec: { requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] }] },
        },
      },
    });
    expect(staticDrift({ 'karpenter.sh/nodepool-hash': hash }, amd64, both)?.reason).toBe(
      StaticDriftReasons.NodePoolDrifted,
    );
  });
});

describe('driftLabels', () => {
  it("takes the claim's labels, overridden by the Node's", () => {
    expect(driftLabels({ a: '1', b: '1' }, { b: '2', c: '2' })).toEqual({ a: '1', b: '2', c: '2' });
    expect(driftLabels(undefined, undefined)).toEqual({});
  });
});
