import { describe, expect, it } from 'vitest';
import type { Pod } from '../../apis/kubernetes/pod.js';
import { aPod } from '../../testing/pod-builder.js';
import { comparePodsForScheduling, podCreationMillis } from './identity.js';
import { podRequests } from './requests.js';

function pod(name: string, cpu: string, created: string): Pod {
  return aPod({
    metadata: { name, creationTimestamp: created, uid: `uid-${name}` },
    spec: { containers: [{ name: 'c', image: 'i', resources: { requests: { cpu, memory: '1Gi' } } }] },
  });
}

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
