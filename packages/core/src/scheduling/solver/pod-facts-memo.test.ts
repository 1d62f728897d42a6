import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { aPod } from '../../testing/pod-builder.js';
import { podCreationMillis } from '../pod/identity.js';
import type { VolumeRequirement } from '../volumes/volume-topology.js';
import { PodFactsMemo } from './pod-facts-memo.js';
import { podSignature } from './signature.js';

function pod(name: string, cpu: string, created: string): Pod {
  return aPod({
    metadata: { name, creationTimestamp: created, uid: `uid-${name}` },
    spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu, memory: '1Gi' } } }] },
  });
}

const zonal: VolumeRequirement = { volume: 'data', source: 'StorageClass zonal', alternatives: [] };

describe('PodFactsMemo', () => {
  it("answers podSignature and podCreationMillis, once per pod object, and a new object's anew", () => {
    const memo = new PodFactsMemo();
    const a = pod('a', '1', '2026-01-01T00:00:00Z');
    const first = memo.signature(a, []);
    expect(first).toBe(podSignature(a, []));
    expect(memo.created(a)).toBe(podCreationMillis(a));
    // A changed pod is a new object (the contract): it gets its own answers.
    const relabelled = {
      ...a,
      metadata: { ...a.metadata, labels: { tier: 'web' }, creationTimestamp: '2026-01-02T00:00:00Z' },
    };
    expect(memo.signature(relabelled, [])).toBe(podSignature(relabelled, []));
    expect(memo.signature(relabelled, [])).not.toBe(first);
    expect(memo.created(relabelled)).toBe(Date.parse('2026-01-02T00:00:00Z'));
    expect(memo.signature(a, [])).toBe(first);
  });

  it('does not keep the signature of a pod whose volumes impose something: it depends on them', () => {
    const memo = new PodFactsMemo();
    const a = pod('a', '1', '2026-01-01T00:00:00Z');
    const withVolume = memo.signature(a, [zonal]);
    expect(withVolume).toBe(podSignature(a, [zonal]));
    // The same object with its claim's class changed to one imposing nothing.
    expect(memo.signature(a, [])).toBe(podSignature(a, []));
    expect(memo.signature(a, [])).not.toBe(withVolume);
    const other: VolumeRequirement = { ...zonal, source: 'PersistentVolume pv-1' };
    expect(memo.signature(a, [other])).toBe(podSignature(a, [other]));
  });
});
