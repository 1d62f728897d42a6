import { describe, expect, it } from 'vitest';
import { Labels, Taints } from '../../apis/labels.js';
import { aNode } from '../../testing/node-builder.js';
import { budgetRelevantChange } from './nodepool-metrics-controller.js';

const pooled = (extra: Parameters<typeof aNode>[0] = {}) =>
  aNode({
    ...extra,
    metadata: {
      name: 'n1',
      labels: { [Labels.NodePool]: 'default', [Labels.Initialized]: 'true' },
      ...extra.metadata,
    },
  });

describe('budgetRelevantChange', () => {
  const before = pooled();

  it('ignores a heartbeat: a condition time, an annotation, allocatable', () => {
    const heartbeat = pooled({
      metadata: { annotations: { 'kwok.x-k8s.io/heartbeat': '2' } },
      status: {
        allocatable: { cpu: '3900m' },
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'KubeletReady',
            lastTransitionTime: '2026-02-01T00:00:00Z',
          },
        ],
      },
    });
    expect(budgetRelevantChange(before, heartbeat)).toBe(false);
  });

  it('sees what the budget figures read: readiness, initialization, the pool, deletion, the disrupted taint', () => {
    const notReady = pooled({
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'False',
            reason: 'KubeletNotReady',
            lastTransitionTime: '2026-02-01T00:00:00Z',
          },
        ],
      },
    });
    expect(budgetRelevantChange(before, notReady)).toBe(true);
    expect(
      budgetRelevantChange(before, {
        ...before,
        metadata: { ...before.metadata, labels: { [Labels.NodePool]: 'default' } },
      }),
    ).toBe(true);
    expect(
      budgetRelevantChange(before, {
        ...before,
        metadata: {
          ...before.metadata,
          labels: { [Labels.NodePool]: 'other', [Labels.Initialized]: 'true' },
        },
      }),
    ).toBe(true);
    expect(
      budgetRelevantChange(before, {
        ...before,
        metadata: { ...before.metadata, deletionTimestamp: '2026-03-01T00:00:00Z' },
      }),
    ).toBe(true);
    expect(
      budgetRelevantChange(before, {
        ...before,
        spec: { ...before.spec, taints: [{ key: Taints.Disrupted.key, effect: 'NoSchedule' }] },
      }),
    ).toBe(true);
  });
});
