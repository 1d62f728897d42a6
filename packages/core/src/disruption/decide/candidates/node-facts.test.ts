import { describe, expect, it } from 'vitest';
import { boundPod, cluster, managedNode, pdb } from '../../../testing/disruption-builders.js';
import { aNodePool } from '../../../testing/nodepool-builder.js';
import { managedNodes } from './managed-node.js';
import { doNotDisruptBlock, lifetimeLeft, NodeFactsMemo, nodeFacts } from './node-facts.js';
import { pdbBlock, pdbBlockOf, pdbLimits } from './pdb-limits.js';

const created = '2026-01-01T00:00:00Z';
const t0 = Date.parse(created);

function oneNode(pods: Parameters<typeof boundPod>[] = []) {
  const n = managedNode('n1', { created });
  const snapshot = cluster({ nodes: [{ node: n, pods: pods.map((p) => boundPod(...p)) }] });
  const [node] = managedNodes(snapshot.capacity);
  return node!;
}

describe('nodeFacts', () => {
  it('counts consolidateAfter from the newest active pod, and the lifetime from creation', () => {
    const node = oneNode([
      ['a', 'n1', { created: '2026-01-01T00:10:00Z' }],
      ['b', 'n1', { created: '2026-01-01T00:05:00Z' }],
    ]);
    const facts = nodeFacts(node, aNodePool({ spec: { template: { spec: { expireAfter: '10h' } } } }));
    expect(facts.since).toBe(t0 + 600_000);
    expect(facts.sinceWhat).toBe('pod default/a was created');
    expect(facts.evictionCost).toBe(2);
    expect(lifetimeLeft(facts, t0 + 3_600_000)).toBeCloseTo(0.9);
    expect(lifetimeLeft(facts, t0 + 11 * 3_600_000)).toBe(0);
    const never = nodeFacts(node, aNodePool({ spec: { template: { spec: { expireAfter: 'Never' } } } }));
    expect(lifetimeLeft(never, t0 + 11 * 3_600_000)).toBe(1);
  });

  it('keeps a do-not-disrupt duration until it runs out, and "true" for good', () => {
    const node = oneNode([
      ['a', 'n1', { created, annotations: { 'karpenter.sh/do-not-disrupt': '30m' } }],
      ['b', 'n1', { created, annotations: { 'karpenter.sh/do-not-disrupt': 'later' } }],
    ]);
    const facts = nodeFacts(node, aNodePool());
    expect(doNotDisruptBlock(facts, t0 + 1_799_999)).toBe(
      'pod default/a has karpenter.sh/do-not-disrupt: 30m (until 2026-01-01T00:30:00.000Z)',
    );
    expect(doNotDisruptBlock(facts, t0 + 1_800_000)).toBeUndefined();
    const always = oneNode([['c', 'n1', { annotations: { 'karpenter.sh/do-not-disrupt': 'true' } }]]);
    expect(doNotDisruptBlock(nodeFacts(always, aNodePool()), Number.MAX_SAFE_INTEGER)).toBe(
      'pod default/c has karpenter.sh/do-not-disrupt',
    );
  });
});

describe('NodeFactsMemo', () => {
  it('keeps facts per node while the NodePool fields they read are the same', () => {
    const memo = new NodeFactsMemo();
    const node = oneNode([['a', 'n1', {}]]);
    const pool = aNodePool({ spec: { template: { spec: { expireAfter: '10h' } } } });
    const facts = memo.facts(node, pool);
    // Another parse of the same pool (status churn) keeps them; another expireAfter does not.
    expect(memo.facts(node, aNodePool({ spec: { template: { spec: { expireAfter: '10h' } } } }))).toBe(facts);
    const shorter = memo.facts(node, aNodePool({ spec: { template: { spec: { expireAfter: '5h' } } } }));
    expect(shorter).not.toBe(facts);
    expect(shorter.lifetimeMs).toBe(5 * 3_600_000);
  });

  it('keeps PDB matches while selectors hold, and judges them by what each PDB allows now', () => {
    const memo = new NodeFactsMemo();
    const node = oneNode([['a', 'n1', { labels: { app: 'web' } }]]);
    const allows = (n: number) =>
      pdbLimits([pdb('web', { matchLabels: { app: 'web' }, disruptionsAllowed: n })], node.pods, 0);
    const one = allows(1);
    const matches = memo.pdbMatches(node, one);
    expect(pdbBlockOf(matches, one)).toBeUndefined();
    const none = allows(0);
    expect(memo.pdbMatches(node, none)).toBe(matches);
    expect(pdbBlockOf(matches, none)).toBe(
      'pod default/a is protected by PodDisruptionBudget default/web (0 disruptions allowed)',
    );
    expect(pdbBlockOf(matches, none)).toBe(pdbBlock(node.pods, none));
    // A PDB with another selector is matched afresh.
    const other = pdbLimits(
      [pdb('web', { matchLabels: { app: 'api' }, disruptionsAllowed: 0 })],
      node.pods,
      0,
    );
    expect(memo.pdbMatches(node, other)).toEqual([]);
  });
});
