import { describe, expect, it } from 'vitest';
import { disruptingNodes, isRunningPod, isUnschedulablePod, type Observed } from './observe.js';

const meta = (name: string, deleting = false) => ({
  name,
  ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
});

describe('observe', () => {
  it('counts a pod as running only when bound, Running, Ready and not deleting', () => {
    const running: Observed = {
      metadata: meta('a'),
      spec: { nodeName: 'n1' },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    };
    expect(isRunningPod(running)).toBe(true);
    expect(isRunningPod({ ...running, metadata: meta('a', true) })).toBe(false);
    expect(
      isRunningPod({
        ...running,
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] },
      }),
    ).toBe(false);
    expect(isRunningPod({ ...running, spec: {} })).toBe(false);
  });

  it('recognises the scheduler giving up on a pod', () => {
    const pending: Observed = {
      metadata: meta('p'),
      status: {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
      },
    };
    expect(isUnschedulablePod(pending)).toBe(true);
    expect(isUnschedulablePod({ metadata: meta('q'), status: { phase: 'Pending' } })).toBe(false);
  });

  it('treats tainted and deleting nodes as disrupting', () => {
    const nodes: Observed[] = [
      { metadata: meta('calm') },
      {
        metadata: meta('tainted'),
        spec: { taints: [{ key: 'karpenter.sh/disrupted', effect: 'NoSchedule' }] },
      },
      { metadata: meta('going', true) },
      { metadata: meta('other'), spec: { taints: [{ key: 'example.com/x', effect: 'NoSchedule' }] } },
    ];
    expect(disruptingNodes(nodes).map((n) => n.metadata.name)).toEqual(['tainted', 'going']);
  });
});
