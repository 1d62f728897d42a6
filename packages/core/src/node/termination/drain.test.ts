import { describe, expect, it } from 'vitest';
import { Annotations, Taints } from '../../apis/labels.js';
import { aRunningPod } from '../../testing/pod-builder.js';
import { drainTier, isDoNotDisruptActive, isWaitingEviction, planDrain } from './drain.js';

const T0 = Date.parse('2026-03-02T09:00:00Z');
const pod = (name: string, extra: Parameters<typeof aRunningPod>[1] = {}) =>
  aRunningPod('n1', { ...extra, metadata: { name, ...extra.metadata } });
const ds = { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: 'u1' };

describe('drain decisions', () => {
  it('orders pods into the four tiers', () => {
    expect(drainTier(pod('a'))).toBe(0);
    expect(drainTier(pod('b', { metadata: { ownerReferences: [ds] } }))).toBe(1);
    expect(drainTier(pod('c', { spec: { priorityClassName: 'system-cluster-critical' } }))).toBe(2);
    expect(
      drainTier(
        pod('d', {
          metadata: { ownerReferences: [ds] },
          spec: { priorityClassName: 'system-node-critical' },
        }),
      ),
    ).toBe(3);
  });

  it('evicts only the first tier that has waiting pods', () => {
    const plan = planDrain(
      [
        pod('crit', { spec: { priorityClassName: 'system-node-critical' } }),
        pod('daemon', { metadata: { ownerReferences: [ds] } }),
      ],
      T0,
      undefined,
    );
    expect(plan.waiting).toBe(2);
    expect(plan.tier).toBe(1);
    expect(plan.evict.map((p) => p.metadata.name)).toEqual(['daemon']);
  });

  it('ignores terminal, tolerating, static and stuck pods; does not evict do-not-disrupt ones but waits for them', () => {
    const pods = [
      pod('done', { status: { phase: 'Succeeded' } }),
      pod('tolerant', {
        spec: { tolerations: [{ key: Taints.Disrupted.key, operator: 'Exists', effect: 'NoSchedule' }] },
      }),
      pod('static', { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1' }] } }),
      pod('stuck', { metadata: { deletionTimestamp: '2026-03-02T08:58:00Z' } }),
      pod('protected', { metadata: { annotations: { [Annotations.DoNotDisrupt]: 'true' } } }),
      pod('terminating', { metadata: { deletionTimestamp: '2026-03-02T08:59:30Z' } }),
    ];
    expect(pods.filter((p) => isWaitingEviction(p, T0)).map((p) => p.metadata.name)).toEqual([
      'protected',
      'terminating',
    ]);
    const plan = planDrain(pods, T0, undefined);
    expect(plan.waiting).toBe(2);
    expect(plan.evict).toEqual([]);
    expect(plan.protected.map((p) => p.metadata.name)).toEqual(['protected']);
    expect(plan.forceDelete).toEqual([]);
  });

  it('a duration do-not-disrupt protects until that long after the pod started', () => {
    const p = pod('p', {
      metadata: { annotations: { [Annotations.DoNotDisrupt]: '30m' } },
      status: { startTime: '2026-03-02T09:00:00Z' },
    });
    expect(isDoNotDisruptActive(p, T0 + 29 * 60_000)).toBe(true);
    expect(isDoNotDisruptActive(p, T0 + 30 * 60_000)).toBe(false);
    expect(
      isDoNotDisruptActive(
        pod('x', { metadata: { annotations: { [Annotations.DoNotDisrupt]: 'soon' } } }),
        T0,
      ),
    ).toBe(false);
  });

  it('deletes pods whose own grace no longer fits before the termination time, with the grace that is left', () => {
    const deadline = T0 + 5 * 60_000;
    const pods = [
      pod('short', { spec: { terminationGracePeriodSeconds: 30 } }),
      pod('long', { spec: { terminationGracePeriodSeconds: 600 } }),
      pod('late', { metadata: { deletionTimestamp: '2026-03-02T09:20:00Z' } }),
    ];
    const plan = planDrain(pods, T0, deadline);
    expect(plan.forceDelete.map((f) => [f.pod.metadata.name, f.gracePeriodSeconds])).toEqual([
      ['long', 300],
      ['late', 300],
    ]);
    expect(plan.evict.map((p) => p.metadata.name)).toEqual(['short']);
    const later = planDrain(pods.slice(0, 1), deadline - 30_000, deadline);
    expect(later.forceDelete.map((f) => f.gracePeriodSeconds)).toEqual([30]);
    const past = planDrain(pods.slice(0, 1), deadline + 1_000, deadline);
    expect(past.forceDelete.map((f) => f.gracePeriodSeconds)).toEqual([0]);
  });
});
