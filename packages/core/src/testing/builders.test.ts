import { describe, expect, it } from 'vitest';
import { nodeSchema } from '../apis/kubernetes/node.js';
import { podSchema } from '../apis/kubernetes/pod.js';
import { Annotations, Labels, Taints } from '../apis/labels.js';
import { nodeClaimSchema } from '../apis/v1/nodeclaim.js';
import { nodePoolSchema } from '../apis/v1/nodepool.js';
import { nodePoolTemplateHash } from '../apis/v1/nodepool-hash.js';
import { boundPod, cluster } from './disruption-builders.js';
import { mergeOverrides } from './merge.js';
import { aNode, aNodeFor } from './node-builder.js';
import { aNodeClaim, aNodeClaimFor } from './nodeclaim-builder.js';
import { aNodePool } from './nodepool-builder.js';
import { aPod, aRunningPod } from './pod-builder.js';

describe('mergeOverrides', () => {
  it('merges objects deeply, replaces arrays and primitives, ignores undefined, never aliases', () => {
    const base = { a: { b: 1, c: [1, 2] }, d: 'x' };
    const merged = mergeOverrides(base, { a: { c: [3] }, d: undefined });
    expect(merged).toEqual({ a: { b: 1, c: [3] }, d: 'x' });
    merged.a.b = 9;
    expect(base.a.b).toBe(1);
  });
});

describe('builders', () => {
  it('aNodePool is valid and defaulted, and takes overrides', () => {
    const pool = aNodePool({ metadata: { name: 'gpu' }, spec: { weight: 10 } });
    expect(nodePoolSchema.safeParse(pool).success).toBe(true);
    expect(pool.metadata.name).toBe('gpu');
    expect(pool.spec.weight).toBe(10);
    expect(pool.spec.template.spec.expireAfter).toBe('720h');
    expect(pool.spec.disruption.budgets).toEqual([{ nodes: '10%' }]);
    expect(() => aNodePool({ spec: { weight: 1000 } })).toThrow(/weight/);
  });

  it('aNodeClaim is valid and aNodeClaimFor carries the pool template and hash', () => {
    const claim = aNodeClaim({ metadata: { name: 'c1' } });
    expect(nodeClaimSchema.safeParse(claim).success).toBe(true);
    expect(claim.metadata.labels?.[Labels.NodePool]).toBe('default');
    const pool = aNodePool({
      spec: {
        template: {
          metadata: { labels: { team: 'a' } },
          spec: {
            taints: [{ key: 'dedicated', value: 'a', effect: 'NoSchedule' }],
            terminationGracePeriod: '1h',
          },
        },
      },
    });
    const fromPool = aNodeClaimFor(pool, { metadata: { name: 'default-x1' } });
    expect(nodeClaimSchema.safeParse(fromPool).success).toBe(true);
    expect(fromPool.metadata.labels).toEqual({ team: 'a', [Labels.NodePool]: 'default' });
    expect(fromPool.metadata.annotations?.[Annotations.NodePoolHash]).toBe(nodePoolTemplateHash(pool));
    expect(fromPool.spec.taints).toEqual([{ key: 'dedicated', value: 'a', effect: 'NoSchedule' }]);
    expect(fromPool.spec.terminationGracePeriod).toBe('1h');
    expect(fromPool.spec.requirements.at(-1)).toEqual({
      key: Labels.NodePool,
      operator: 'In',
      values: ['default'],
    });
  });

  it('aNode and aNodeFor are valid; aNodeFor registers like a kubelet', () => {
    const node = aNode({ metadata: { name: 'n2' } });
    expect(nodeSchema.safeParse(node).success).toBe(true);
    expect(node.metadata.labels?.[Labels.Hostname]).toBe('n2');
    const claim = aNodeClaim({
      spec: { startupTaints: [{ key: 'cni', effect: 'NoSchedule' }] },
      status: { providerID: 'fake://c', capacity: { cpu: '2' }, allocatable: { cpu: '1900m' } },
    });
    const registered = aNodeFor(claim);
    expect(nodeSchema.safeParse(registered).success).toBe(true);
    expect(registered.spec.providerID).toBe('fake://c');
    expect(registered.spec.taints).toEqual([
      { ...Taints.Unregistered },
      { key: 'cni', effect: 'NoSchedule' },
    ]);
    expect(registered.status?.allocatable).toEqual({ cpu: '1900m' });
    expect(() => aNodeFor(aNodeClaim())).toThrow(/not launched/);
  });

  it('aPod and aRunningPod are valid', () => {
    expect(podSchema.safeParse(aPod()).success).toBe(true);
    const running = aRunningPod('n1', { metadata: { name: 'web' } });
    expect(podSchema.safeParse(running).success).toBe(true);
    expect(running.spec.nodeName).toBe('n1');
    expect(running.status?.phase).toBe('Running');
    expect(running.metadata.name).toBe('web');
  });

  it('the disruption builders start from the same defaults: one pod size, one NodePool budget', () => {
    const requests = (pod: ReturnType<typeof aPod>) => pod.spec.containers[0]?.resources?.requests;
    expect(requests(boundPod('p', 'n1'))).toEqual(requests(aPod()));
    expect(requests(boundPod('q', ''))).toEqual(requests(aPod()));
    expect(requests(boundPod('r', 'n1', { cpu: '1' }))).toEqual({ ...requests(aPod()), cpu: '1' });
    expect(boundPod('p', 'n1').status?.phase).toBe('Running');
    expect(boundPod('q', '').status?.phase).toBe('Pending');
    expect(cluster({ nodes: [] }).nodePools).toEqual([aNodePool()]);
  });
});
