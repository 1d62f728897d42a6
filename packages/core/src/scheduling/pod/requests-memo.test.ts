import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { aPod } from '../../testing/pod-builder.js';
import { podRequests } from './requests.js';
import { PodRequestsMemo } from './requests-memo.js';

function pod(cpu: string): Pod {
  return aPod({
    metadata: { name: `p-${cpu}` },
    spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu, memory: '1Gi' } } }] },
  });
}

describe('PodRequestsMemo', () => {
  it("answers podRequests, once per pod object, and a new object's anew", () => {
    const memo = new PodRequestsMemo();
    const a = pod('1500m');
    const first = memo.of(a);
    expect(first).toEqual(podRequests(a));
    expect(memo.of(a)).toBe(first);
    // A changed pod is a new object (the contract): it gets its own answer, not the old one's.
    const resized = { ...a, spec: pod('2').spec };
    expect(memo.of(resized).get('cpu')?.toString()).toBe('2');
    expect(memo.of(a).get('cpu')?.toString()).toBe('1500m');
  });

  it('remembers nothing for a pod whose requests do not parse', () => {
    const memo = new PodRequestsMemo();
    const valid = pod('1');
    const bad: Pod = {
      ...valid,
      spec: {
        ...valid.spec,
        containers: [{ name: 'c', image: 'i', resources: { requests: { cpu: 'lots' } } }],
      },
    };
    expect(() => memo.of(bad)).toThrow();
    expect(() => memo.of(bad)).toThrow();
  });
});
