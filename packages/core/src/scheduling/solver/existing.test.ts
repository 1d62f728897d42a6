import { describe, expect, it } from 'vitest';
import { ResourceSlots } from '../resources/resource-vector.js';
import { prepareExisting } from './existing.js';
import { boundPod, existing, node } from './testing/index.js';

describe('prepareExisting: what every solve reads of the bound pods, derived once', () => {
  const antiAffinity = {
    affinity: {
      podAntiAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: [
          { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'db' } } },
        ],
      },
    },
  };
  const web = boundPod('web', 'n1', { labels: { app: 'web' } });
  const db = boundPod('db', 'n1', { namespace: 'data', labels: { app: 'db' }, spec: antiAffinity });
  const leaving = {
    ...boundPod('leaving', 'n1', { namespace: 'batch', spec: antiAffinity }),
    metadata: { name: 'leaving', namespace: 'batch', deletionTimestamp: '2026-03-02T00:00:00Z' },
  };
  const done = { ...boundPod('done', 'n1', { namespace: 'jobs' }), status: { phase: 'Succeeded' as const } };
  const prepared = prepareExisting(existing(node('n1'), [web, db, leaving, done]), [], new ResourceSlots());

  it('lists the namespaces of the pods that still count, deleting ones included, finished ones not', () => {
    expect([...prepared.namespaces].sort()).toEqual(['batch', 'data', 'default']);
  });

  it('counts for topology only the pods not being deleted, on the prepared node', () => {
    expect(prepared.counted.map((c) => [c.namespace, c.labels?.app])).toEqual([
      ['default', 'web'],
      ['data', 'db'],
    ]);
    for (const c of prepared.counted) expect(c.node).toBe(prepared.topologyNode);
  });

  it('keeps the pods with required anti-affinity that are not being deleted', () => {
    expect(prepared.antiAffine).toEqual([db]);
  });
});
