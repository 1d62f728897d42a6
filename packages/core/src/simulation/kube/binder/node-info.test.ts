import { describe, expect, it } from 'vitest';
import { simNode, simPod } from '../test-fixtures.js';
import { NodeInfo } from './node-info.js';
import { podInfoOf } from './pod-info.js';

const pod = (name: string, cpu: string) =>
  podInfoOf(simPod(name, { spec: { containers: [{ name: 'c', resources: { requests: { cpu } } }] } }));

describe('NodeInfo.copy', () => {
  it('holds the same node and sums, and pods placed on it leave the original as it was', () => {
    const original = new NodeInfo('n1');
    original.setNode(simNode('n1'));
    original.add(pod('a', '500m'));
    const copy = original.copy();
    expect(copy.name).toBe('n1');
    expect(copy.node).toBe(original.node);
    expect(copy.allocatable).toBe(original.allocatable);
    expect([...copy.pods.keys()]).toEqual([...original.pods.keys()]);
    expect(copy.requested).toEqual(original.requested);
    expect(copy.nonZeroMilliCpu).toBe(original.nonZeroMilliCpu);

    copy.add(pod('b', '250m'));
    expect([...original.pods.keys()]).toEqual(['default/a']);
    expect(original.requested.get('cpu')).toBe(500_000_000n);
    expect(copy.requested.get('cpu')).toBe(750_000_000n);
    expect(original.nonZeroMilliCpu).toBe(500n);
    copy.remove('default/a');
    expect(original.pods.has('default/a')).toBe(true);
    expect(original.requested.get('cpu')).toBe(500_000_000n);
  });
});
