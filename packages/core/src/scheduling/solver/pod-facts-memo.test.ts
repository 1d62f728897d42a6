import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { aPod } from '../../testing/pod-builder.js';
import { comparePodsForScheduling, podCreationMillis } from '../pod/identity.js';
import { podRequests } from '../pod/requests.js';
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

describe('comparePodsForScheduling with shared requests', () => {
  it('orders pods sharing one requests object as it orders them with copies of it', () => {
    const shared = podRequests(pod('x', '500m', '2026-01-01T00:00:00Z'));
    const entries = ['d', 'b', 'c', 'a'].map((name, i) => {
      const p = pod(name, '500m', `2026-01-01T00:00:0${i % 2}Z`);
      return { pod: p, requests: shared, created: podCreationMillis(p) };
    });
    const bigger = pod('big', '2', '2026-01-01T00:00:09Z');
    entries.push({ pod: bigger, requests: podRequests(bigger), created: podCreationMillis(bigger) });
    const copies = entries.map((e) => ({ ...e, requests: new Map(e.requests) }));
    const names = (list: typeof entries) => list.map((e) => e.pod.metadata.name);
    const sorted = names([...entries].sort(comparePodsForScheduling));
    expect(sorted).toEqual(names([...copies].sort(comparePodsForScheduling)));
    // Largest first, then creation time, then uid.
    expect(sorted).toEqual(['big', 'c', 'd', 'a', 'b']);
  });
});
