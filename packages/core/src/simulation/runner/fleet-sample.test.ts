import { describe, expect, it } from 'vitest';
import { aNode } from '../../testing/node-builder.js';
import { aRunningPod } from '../../testing/pod-builder.js';
import { AllocatableMemo, PodFiguresMemo, sampleFleet } from './fleet-sample.js';

describe('AllocatableMemo', () => {
  it('gives what a fresh parse gives, once per allocatable object', () => {
    const node = aNode({
      metadata: { name: 'n1' },
      status: { allocatable: { cpu: '3900m', memory: '15Gi' } },
    });
    const memo = new AllocatableMemo();
    const first = memo.of(node);
    expect(first).toEqual({ cpu: 3.9, memory: 15 * 2 ** 30 });
    expect(memo.of({ ...node })).toBe(first);
    // A node whose allocatable changed is a new object: parsed again.
    const grown = { ...node, status: { ...node.status, allocatable: { cpu: '7900m', memory: '15Gi' } } };
    expect(memo.of(grown).cpu).toBe(7.9);
  });

  it('leaves the sample as it is without one', () => {
    const nodes = [
      aNode({ metadata: { name: 'a' }, status: { allocatable: { cpu: '2', memory: '4Gi' } } }),
      aNode({ metadata: { name: 'b' }, status: { allocatable: { cpu: '4', memory: '8Gi' } } }),
    ];
    const memo = new AllocatableMemo();
    const kept = sampleFleet(1, nodes, [], 0, {}, [], undefined, undefined, memo);
    expect(sampleFleet(1, nodes, [], 0, {}, [], undefined, undefined, memo)).toEqual(kept);
    expect(sampleFleet(1, nodes, [], 0)).toEqual(kept);
    expect(kept.cpuAllocatable).toBe(6);
  });
});

describe('PodFiguresMemo', () => {
  it('reads each pod object once, and samples as without it', () => {
    const node = aNode({ metadata: { name: 'a' }, status: { allocatable: { cpu: '4', memory: '8Gi' } } });
    const web = aRunningPod('a', {
      metadata: { name: 'web' },
      spec: {
        containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '1500m', memory: '2Gi' } } }],
      },
    });
    const daemon = aRunningPod('a', {
      metadata: {
        name: 'ds',
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'd', uid: 'u', controller: true },
        ],
      },
      spec: { containers: [{ name: 'c', image: 'x', resources: { requests: { cpu: '100m' } } }] },
    });
    const memo = new PodFiguresMemo();
    const first = memo.of(web);
    expect(first).toMatchObject({ cpu: 1.5, memory: 2 * 2 ** 30, daemon: false });
    expect(memo.of(web)).toBe(first);
    expect(memo.of(daemon).daemon).toBe(true);
    const kept = sampleFleet(1, [node], [web, daemon], 0, {}, [], undefined, undefined, undefined, memo);
    expect(kept).toEqual(sampleFleet(1, [node], [web, daemon], 0));
    expect(kept.cpuRequested).toBeCloseTo(1.6);
  });
});
