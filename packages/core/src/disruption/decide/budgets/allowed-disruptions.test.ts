import { describe, expect, it } from 'vitest';
import { aNodePool } from '../../../testing/nodepool-builder.js';
import {
  allowedDisruptions,
  budgetActivity,
  budgetAllowance,
  UnlimitedDisruptions,
} from './allowed-disruptions.js';

const at = (iso: string) => Date.parse(iso);
// Wednesday 2024-05-01.
const businessHours = { nodes: '0', schedule: '0 9 * * mon-fri', duration: '8h' };

describe('budgetActivity', () => {
  it.each([
    ['2024-05-01T08:59:00Z', false],
    ['2024-05-01T09:00:00Z', true],
    ['2024-05-01T16:59:59Z', true],
    ['2024-05-01T17:00:00Z', false],
    ['2024-05-04T10:00:00Z', false], // Saturday
  ])('a 09:00 weekday window of 8h at %s is active: %s', (iso, active) => {
    expect(budgetActivity(businessHours, at(iso))).toEqual({ active });
  });

  it('is always active without schedule and duration', () => {
    expect(budgetActivity({}, at('2024-05-01T00:00:00Z'))).toEqual({ active: true });
  });

  it('spans midnight', () => {
    const nightly = { schedule: '0 22 * * *', duration: '4h' };
    expect(budgetActivity(nightly, at('2024-05-02T01:30:00Z'))).toEqual({ active: true });
    expect(budgetActivity(nightly, at('2024-05-02T02:00:00Z'))).toEqual({ active: false });
  });

  it.each([
    [{ schedule: '0 9 * * *' }, 'schedule is set without a duration'],
    [{ duration: '1h' }, 'duration is set without a schedule'],
    [{ schedule: '0 25 * * *', duration: '1h' }, 'hour: 25 is outside 0-23'],
    [{ schedule: '0 9 * * *', duration: 'soon' }, 'duration "soon" is invalid'],
  ])('is misconfigured for %j', (budget, message) => {
    const result = budgetActivity(budget, at('2024-05-01T10:00:00Z'));
    expect('error' in result && result.error).toContain(message);
  });
});

describe('budgetAllowance', () => {
  const now = at('2024-05-01T10:00:00Z');
  it.each([
    ['10%', 5, 1],
    ['10%', 10, 1],
    ['10%', 11, 2],
    ['10%', 0, 0],
    ['50%', 3, 2],
    ['100%', 7, 7],
    ['0%', 7, 0],
    ['3', 2, 3],
    ['0', 9, 0],
  ])('nodes %s of %i nodes allows %i', (nodes, count, allowed) => {
    expect(budgetAllowance({ nodes }, count, now)).toEqual({ allowed, active: true });
  });

  it('allows everything while its window is inactive, nothing when misconfigured', () => {
    expect(budgetAllowance(businessHours, 10, at('2024-05-01T18:00:00Z'))).toEqual({
      allowed: UnlimitedDisruptions,
      active: false,
    });
    expect(budgetAllowance({ nodes: '5', schedule: '0 9 * * *' }, 10, now).allowed).toBe(0);
    expect(budgetAllowance({ nodes: 'five' }, 10, now).allowed).toBe(0);
    expect(budgetAllowance({ nodes: '150%' }, 10, now).allowed).toBe(0);
  });
});

describe('allowedDisruptions', () => {
  const p = aNodePool({
    metadata: { name: 'default' },
    spec: {
      disruption: {
        budgets: [
          { nodes: '20%' },
          { nodes: '0', reasons: ['Underutilized'], schedule: '0 9 * * mon-fri', duration: '8h' },
          { nodes: '1', reasons: ['Drifted'] },
        ],
      },
    },
  });

  it('takes the minimum over active budgets that limit the reason', () => {
    const inHours = at('2024-05-01T10:00:00Z');
    const afterHours = at('2024-05-01T20:00:00Z');
    expect(allowedDisruptions(p, 10, 'Underutilized', inHours)).toEqual({
      allowed: 0,
      budget: 1,
      errors: [],
    });
    expect(allowedDisruptions(p, 10, 'Underutilized', afterHours)).toEqual({
      allowed: 2,
      budget: 0,
      errors: [],
    });
    expect(allowedDisruptions(p, 10, 'Empty', inHours)).toEqual({ allowed: 2, budget: 0, errors: [] });
    expect(allowedDisruptions(p, 10, 'Drifted', inHours)).toEqual({ allowed: 1, budget: 2, errors: [] });
  });

  it('a misconfigured budget allows nothing for its reasons only, and is reported', () => {
    const broken = aNodePool({
      metadata: { name: 'broken' },
      spec: {
        disruption: {
          budgets: [
            { nodes: '100%' },
            { nodes: '5', reasons: ['Drifted'], schedule: '0 9 * * *', duration: '1h' },
          ],
        },
      },
    });
    // The schema would refuse this; the cluster may still hand us one, e.g. from an older CRD.
    const spec = broken.spec;
    const mangled = {
      spec: {
        ...spec,
        disruption: {
          ...spec.disruption,
          budgets: [
            spec.disruption.budgets[0]!,
            { nodes: '5', reasons: ['Drifted' as const], schedule: '0 9 * * *' },
          ],
        },
      },
    };
    const drifted = allowedDisruptions(mangled, 4, 'Drifted', at('2024-05-01T10:00:00Z'));
    expect(drifted.allowed).toBe(0);
    expect(drifted.errors).toEqual(['budgets[1]: schedule is set without a duration']);
    const empty = allowedDisruptions(mangled, 4, 'Empty', at('2024-05-01T10:00:00Z'));
    expect(empty.allowed).toBe(4);
    expect(empty.errors).toHaveLength(1);
  });

  it('is unlimited without budgets, and an empty reasons list limits nothing', () => {
    const none = aNodePool({ metadata: { name: 'none' }, spec: { disruption: { budgets: [] } } });
    expect(allowedDisruptions(none, 3, 'Empty', 0).allowed).toBe(UnlimitedDisruptions);
    const noReasons = {
      spec: { ...none.spec, disruption: { ...none.spec.disruption, budgets: [{ nodes: '0', reasons: [] }] } },
    };
    expect(allowedDisruptions(noReasons, 3, 'Empty', 0).allowed).toBe(UnlimitedDisruptions);
  });
});
