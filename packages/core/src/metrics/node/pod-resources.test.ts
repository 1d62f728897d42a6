import { describe, expect, it } from 'vitest';
import { aPod } from '../../testing/pod-builder.js';
import { metricPodRequests, podLimits } from './pod-resources.js';

const text = (list: ReadonlyMap<string, { toString(): string }>) =>
  Object.fromEntries([...list].map(([k, v]) => [k, v.toString()]));

describe('metricPodRequests', () => {
  it('is podRequests without the synthetic pod count', () => {
    expect(text(metricPodRequests(aPod()))).toEqual({ cpu: '100m', memory: '64Mi' });
  });
});

describe('podLimits', () => {
  it('adds app containers, takes the init peak, counts sidecars on both sides and adds overhead', () => {
    const pod = aPod({
      spec: {
        containers: [
          { name: 'a', image: 'x', resources: { limits: { cpu: '1', memory: '1Gi' } } },
          { name: 'b', image: 'x', resources: { limits: { cpu: '500m' } } },
        ],
        initContainers: [
          { name: 'side', image: 'x', restartPolicy: 'Always', resources: { limits: { cpu: '250m' } } },
          { name: 'setup', image: 'x', resources: { limits: { cpu: '3', memory: '512Mi' } } },
        ],
        overhead: { cpu: '10m' },
      },
    });
    // app 1.5 + sidecar 0.25 = 1.75 < init 3 + sidecar 0.25 = 3.25; memory max(1Gi, 512Mi).
    expect(text(podLimits(pod))).toEqual({ cpu: '3260m', memory: '1Gi' });
  });

  it('is empty (unbounded) for a pod without limits, overhead notwithstanding', () => {
    expect(podLimits(aPod({ spec: { overhead: { cpu: '10m' } } })).size).toBe(0);
  });

  it('lets pod-level limits replace the aggregate', () => {
    const pod = aPod({
      spec: {
        containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '1' } } }],
        resources: { limits: { cpu: '2' } },
      },
    });
    expect(text(podLimits(pod))).toEqual({ cpu: '2' });
  });
});
