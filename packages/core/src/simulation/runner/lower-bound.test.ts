import { describe, expect, it } from 'vitest';
import { instanceType, pod } from '../../scheduling/solver/testing/builders.js';
import { type FleetSample, sampleFleet } from './fleet-sample.js';
import { integratedLowerBound } from './scenario-driver.js';

describe('the lower bound of a fleet sample', () => {
  // 4 cpu for 1 per hour on demand (spot 0.7): 0.25 per cpu-hour at best on demand.
  const types = [instanceType('c-4', { cpu: '4', memory: '16Gi', price: 1, capacityTypes: ['on-demand'] })];

  it('bounds the pods requested now, pending or bound, without DaemonSet or finished pods', () => {
    const pending = pod('pending', { cpu: '2', memory: '1Gi' });
    const unbound = pod('bound', { cpu: '2', memory: '1Gi' });
    const bound = { ...unbound, spec: { ...unbound.spec, nodeName: 'n1' } };
    const done = { ...pod('done', { cpu: '8' }), status: { phase: 'Succeeded' } };
    const daemon = pod('daemon', { cpu: '8' });
    const daemonPod = {
      ...daemon,
      metadata: {
        ...daemon.metadata,
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'd', uid: 'd' }],
      },
    };
    const sample = sampleFleet(0, [], [pending, bound, done, daemonPod] as never, 3, {}, types);
    // 2 + 2 cpu on demand at 0.25 per cpu: 1 per hour.
    expect(sample.lowerBoundPerHour).toBeCloseTo(1, 6);
    expect(sampleFleet(0, [], [pending] as never, 3).lowerBoundPerHour).toBe(0);
  });

  it('integrates each sample until the next, the last until the end', () => {
    const at = (hour: number, lowerBoundPerHour: number) => ({ hour, lowerBoundPerHour }) as FleetSample;
    expect(integratedLowerBound([at(0, 1), at(0.5, 3), at(1, 2)], 1.25)).toBeCloseTo(0.5 + 1.5 + 0.5, 9);
    expect(integratedLowerBound([], 2)).toBe(0);
  });
});
