import { describe, expect, it } from 'vitest';
import {
  type ControllerScale,
  computeDisruptionBudgetStatus,
  DISRUPTED_POD_TIMEOUT_MS,
} from './disruption-budget.js';
import { formatTime } from './object.js';
import type { PodLike } from './pod.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');

function pod(name: string, ready = true, extra: Partial<PodLike['metadata']> = {}): PodLike {
  return {
    metadata: { name, ...extra },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  };
}

const managedBy =
  (replicas: number): ((p: PodLike) => ControllerScale) =>
  () => ({ uid: 'rs', replicas });

describe('computeDisruptionBudgetStatus', () => {
  const pods = [pod('a'), pod('b'), pod('c'), pod('d', false)];

  it('integer minAvailable counts the selected pods as expected', () => {
    expect(
      computeDisruptionBudgetStatus(
        { metadata: {}, spec: { minAvailable: 2 } },
        pods,
        () => 'unmanaged',
        NOW,
      ),
    ).toEqual({
      expectedPods: 4,
      currentHealthy: 3,
      desiredHealthy: 2,
      disruptionsAllowed: 1,
    });
  });

  it('percentages and maxUnavailable scale from the controllers, rounding up', () => {
    const status = (spec: object) =>
      computeDisruptionBudgetStatus({ metadata: {}, spec }, pods, managedBy(4), NOW);
    expect(status({ minAvailable: '50%' })).toMatchObject({
      expectedPods: 4,
      desiredHealthy: 2,
      disruptionsAllowed: 1,
    });
    expect(status({ minAvailable: '51%' })).toMatchObject({ desiredHealthy: 3, disruptionsAllowed: 0 });
    expect(status({ maxUnavailable: 1 })).toMatchObject({ desiredHealthy: 3, disruptionsAllowed: 0 });
    expect(status({ maxUnavailable: '30%' })).toMatchObject({ desiredHealthy: 2, disruptionsAllowed: 1 });
    expect(status({ maxUnavailable: '100%' })).toMatchObject({ desiredHealthy: 0, disruptionsAllowed: 3 });
  });

  it('counts each controller once and ignores unmanaged pods in the expected count', () => {
    const scale = (p: PodLike): ControllerScale =>
      p.metadata.name === 'd' ? 'unmanaged' : { uid: 'rs', replicas: 3 };
    expect(
      computeDisruptionBudgetStatus({ metadata: {}, spec: { maxUnavailable: 1 } }, pods, scale, NOW),
    ).toMatchObject({
      expectedPods: 3,
      desiredHealthy: 2,
      disruptionsAllowed: 1,
    });
  });

  it('fails safe when a controller cannot be found or nothing is expected', () => {
    const lost = computeDisruptionBudgetStatus(
      { metadata: {}, spec: { maxUnavailable: 1 } },
      pods,
      () => undefined,
      NOW,
    );
    expect(lost.disruptionsAllowed).toBe(0);
    expect(lost.error).toMatch(/found no controllers/);
    const none = computeDisruptionBudgetStatus(
      { metadata: {}, spec: { maxUnavailable: 5 } },
      pods,
      () => 'unmanaged',
      NOW,
    );
    expect(none).toMatchObject({ expectedPods: 0, disruptionsAllowed: 0 });
  });

  it('excludes deleting pods and recently approved evictions from the healthy count', () => {
    const recent = formatTime(NOW - 1000);
    const old = formatTime(NOW - DISRUPTED_POD_TIMEOUT_MS - 1000);
    const status = computeDisruptionBudgetStatus(
      { metadata: {}, spec: { minAvailable: 1 }, status: { disruptedPods: { a: recent, b: old } } },
      [pod('a'), pod('b'), pod('c', true, { deletionTimestamp: formatTime(NOW) })],
      () => 'unmanaged',
      NOW,
    );
    expect(status.currentHealthy).toBe(1);
    expect(status.disruptionsAllowed).toBe(0);
  });
});
