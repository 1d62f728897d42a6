import { describe, expect, it } from 'vitest';
import { aNode } from '../../testing/node-builder.js';
import { AllocatableMemo, sampleFleet } from './fleet-sample.js';

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
