import { describe, expect, it } from 'vitest';
import { NodePoolHashVersion, nodePoolTemplateHash } from '../../../apis/v1/nodepool-hash.js';
import { claimFor, cluster, managedNode } from '../../../testing/disruption-builders.js';
import { aNodePool } from '../../../testing/nodepool-builder.js';
import { NodeDriftMemo, nodeDrift } from './drift.js';
import { managedNodes } from './managed-node.js';

const n = managedNode('n1');

function driftOf(
  claim: ReturnType<typeof claimFor> | undefined,
  p = aNodePool({ metadata: { name: 'default' } }),
) {
  const [node] = managedNodes(cluster({ nodes: [{ node: n, ...(claim ? { claim } : {}) }] }).capacity);
  return nodeDrift(node!, p);
}

describe('nodeDrift', () => {
  const current = aNodePool({
    metadata: { name: 'default' },
    spec: { template: { metadata: { labels: { team: 'a' } } } },
  });
  const hash = nodePoolTemplateHash(current);

  it('is not drifted when nothing changed', () => {
    expect(
      driftOf(claimFor(n, { annotations: { 'karpenter.sh/nodepool-hash': hash } }), current),
    ).toBeUndefined();
    expect(driftOf(undefined, current)).toBeUndefined();
  });

  it('reads the Drifted condition, with its time', () => {
    const claim = claimFor(n, {
      conditions: [
        { type: 'Initialized', status: 'True' },
        {
          type: 'Drifted',
          status: 'True',
          reason: 'NodeClassDrift',
          lastTransitionTime: '2024-05-01T10:00:00Z',
        },
      ],
    });
    expect(driftOf(claim)).toEqual({
      reason: 'NodeClaim is Drifted (NodeClassDrift)',
      since: Date.parse('2024-05-01T10:00:00Z'),
    });
    const notDrifted = claimFor(n, {
      conditions: [
        { type: 'Initialized', status: 'True' },
        { type: 'Drifted', status: 'False' },
      ],
    });
    expect(driftOf(notDrifted)).toBeUndefined();
  });

  it('compares the NodeClaim hash with the template hash now, for our hash version or none', () => {
    const edited = aNodePool({
      metadata: { name: 'default' },
      spec: { template: { metadata: { labels: { team: 'b' } } } },
    });
    const stale = claimFor(n, { annotations: { 'karpenter.sh/nodepool-hash': hash } });
    expect(driftOf(stale, edited)?.reason).toBe(
      `NodePool default template changed since launch (karpenter.sh/nodepool-hash ${hash}, now ${nodePoolTemplateHash(edited)})`,
    );
    const versioned = claimFor(n, {
      annotations: {
        'karpenter.sh/nodepool-hash': hash,
        'karpenter.sh/nodepool-hash-version': NodePoolHashVersion,
      },
    });
    expect(driftOf(versioned, edited)).toBeDefined();
    const karpenters = claimFor(n, {
      annotations: { 'karpenter.sh/nodepool-hash': '123', 'karpenter.sh/nodepool-hash-version': 'v3' },
    });
    expect(driftOf(karpenters, edited)).toBeUndefined();
  });

  it('finds requirements the node no longer meets', () => {
    const arm = aNodePool({
      metadata: { name: 'default' },
      spec: {
        template: {
          spec: { requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['arm64'] }] },
        },
      },
    });
    expect(driftOf(undefined, arm)?.reason).toBe(
      "NodePool default requirements no longer match the node's labels: key kubernetes.io/arch: In [arm64] does not intersect In [amd64]",
    );
    const family = aNodePool({
      metadata: { name: 'default' },
      spec: {
        template: { spec: { requirements: [{ key: 'example.com/family', operator: 'In', values: ['m'] }] } },
      },
    });
    expect(driftOf(undefined, family)?.reason).toContain(
      'label "example.com/family" does not have known values',
    );
    const spotOrOd = aNodePool({
      metadata: { name: 'default' },
      spec: {
        template: {
          spec: {
            requirements: [
              { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'on-demand'] },
            ],
          },
        },
      },
    });
    expect(driftOf(undefined, spotOrOd)).toBeUndefined();
  });
});

describe('NodeDriftMemo', () => {
  it('keeps a verdict per node while its NodePool is the same object, and asks again for a new one', () => {
    const pool = aNodePool({ metadata: { name: 'default' } });
    const claim = claimFor(n, { annotations: { 'karpenter.sh/nodepool-hash': nodePoolTemplateHash(pool) } });
    const [node] = managedNodes(cluster({ nodes: [{ node: n, claim }] }).capacity);
    const memo = new NodeDriftMemo();
    expect(memo.drift(node!, pool)).toBeUndefined();
    // The same pool edited is a new object (cluster state parses every version anew).
    const edited = aNodePool({
      metadata: { name: 'default' },
      spec: { template: { metadata: { labels: { team: 'b' } } } },
    });
    expect(memo.drift(node!, edited)?.reason).toMatch(/template changed since launch/);
    expect(memo.drift(node!, edited)).toBe(memo.drift(node!, edited));
    expect(memo.drift(node!, pool)).toBeUndefined();
  });
});
