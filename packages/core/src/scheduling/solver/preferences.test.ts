import { describe, expect, it } from 'vitest';
import { initialView, relax } from './preferences.js';
import { pod } from './testing/builders.js';

const term = (zone: string) => ({
  matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: [zone] }],
});
const podTerm = { labelSelector: { matchLabels: { a: 'b' } }, topologyKey: 'kubernetes.io/hostname' };

describe('relaxation', () => {
  it('gives up preferences in Karpenter order, one per step', () => {
    const p = pod('p', {
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term('a'), term('b')] },
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 1, preference: term('c') },
              { weight: 9, preference: term('d') },
            ],
          },
          podAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: podTerm }],
          },
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: podTerm }],
          },
        },
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey: 'z', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: {} },
          { maxSkew: 1, topologyKey: 'y', whenUnsatisfiable: 'DoNotSchedule', labelSelector: {} },
        ],
      },
    });
    const steps: string[] = [];
    let view = initialView(p, false);
    expect(view.preferredNodeTerms.map((t) => t.weight)).toEqual([9, 1]);
    for (let r = relax(view, true); r !== undefined; r = relax(view, true)) {
      steps.push(r.step);
      view = r.view;
    }
    expect(steps).toEqual([
      'required node affinity term',
      'preferred pod affinity term',
      'preferred pod anti-affinity term',
      'preferred node affinity term',
      'preferred node affinity term',
      'ScheduleAnyway topology spread constraint',
      'PreferNoSchedule taints',
    ]);
    expect(view.requiredTerms).toEqual([term('b')]);
    expect(view.spread.map((c) => c.topologyKey)).toEqual(['y']);
    expect(view.tolerations).toEqual([{ operator: 'Exists', effect: 'PreferNoSchedule' }]);
  });

  it('starts without preferences when asked to ignore them', () => {
    const p = pod('p', {
      spec: {
        affinity: {
          nodeAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, preference: term('c') }],
          },
        },
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey: 'z', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: {} },
        ],
      },
    });
    const view = initialView(p, true);
    expect(view.preferredNodeTerms).toEqual([]);
    expect(view.spread).toEqual([]);
    expect(relax(view, true)).toBeUndefined();
  });
});
