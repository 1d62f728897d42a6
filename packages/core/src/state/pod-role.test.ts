import { describe, expect, it } from 'vitest';
import type { Pod } from '../apis/kubernetes/pod.js';
import { aPod } from '../testing/pod-builder.js';
import { isMarkedUnschedulable, podId, podRole } from './pod-role.js';

const SOME_TIME = '2026-01-01T00:00:00Z';
const unschedulable = {
  status: {
    phase: 'Pending' as const,
    conditions: [
      { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', lastTransitionTime: SOME_TIME },
    ],
  },
};

describe('podRole', () => {
  it('a pod kube-scheduler has not given up on is pending for manifests but not for the controller', () => {
    const pod = aPod();
    expect(podRole(pod)).toEqual({ role: 'pending' });
    expect(podRole(pod, { requireUnschedulable: true })).toEqual({
      role: 'ignored',
      reason: 'not marked Unschedulable by kube-scheduler yet: it may still fit an existing node',
    });
    expect(podRole(aPod(unschedulable), { requireUnschedulable: true })).toEqual({ role: 'pending' });
  });

  it('PodScheduled=False for another reason (gated) is not Unschedulable', () => {
    const gated = aPod({
      status: {
        conditions: [
          { type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', lastTransitionTime: SOME_TIME },
        ],
      },
    });
    expect(isMarkedUnschedulable(gated)).toBe(false);
    expect(podRole(gated, { requireUnschedulable: true }).role).toBe('ignored');
  });

  it('a bound pod is bound even when it still carries the old Unschedulable condition', () => {
    const pod = aPod({ ...unschedulable, spec: { nodeName: 'n1' } });
    expect(podRole(pod, { requireUnschedulable: true })).toEqual({ role: 'bound', nodeName: 'n1' });
  });

  it('a pod as delivered by the API without schedulerName counts as default-scheduler', () => {
    const raw = { ...aPod(), spec: { ...aPod().spec, schedulerName: undefined } } as unknown as Pod;
    expect(podRole(raw)).toEqual({ role: 'pending' });
    expect(podId(raw)).toBe('default/pod-1');
  });
});
