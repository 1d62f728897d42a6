import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import { topologySpreadConstraintSchema } from './topology-spread.js';

const errorsOf = (value: unknown) =>
  fieldErrors(topologySpreadConstraintSchema.safeParse(value).error?.issues ?? []).map((e) => [
    e.path,
    e.message,
  ]);

const base = {
  maxSkew: 1,
  topologyKey: 'topology.kubernetes.io/zone',
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: { matchLabels: { app: 'web' } },
};

describe('topologySpreadConstraintSchema', () => {
  it('accepts a full constraint', () => {
    const full = {
      ...base,
      minDomains: 3,
      matchLabelKeys: ['pod-template-hash'],
      nodeAffinityPolicy: 'Honor',
      nodeTaintsPolicy: 'Ignore',
    };
    expect(topologySpreadConstraintSchema.parse(full)).toEqual(full);
  });

  it('maxSkew and minDomains must be positive whole numbers', () => {
    expect(errorsOf({ ...base, maxSkew: 0, minDomains: 0 })).toEqual([
      ['maxSkew', 'must be greater than 0'],
      ['minDomains', 'must be greater than 0'],
    ]);
    expect(errorsOf({ ...base, maxSkew: 1.5 })).toEqual([
      ['maxSkew', 'must be a whole number greater than 0'],
    ]);
  });

  it('whenUnsatisfiable and the policies are enums', () => {
    expect(errorsOf({ ...base, whenUnsatisfiable: 'Never', nodeTaintsPolicy: 'Respect' })).toEqual([
      ['whenUnsatisfiable', 'must be one of DoNotSchedule, ScheduleAnyway'],
      ['nodeTaintsPolicy', 'must be one of Honor, Ignore'],
    ]);
  });

  it('minDomains only with DoNotSchedule', () => {
    expect(errorsOf({ ...base, whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2 })).toEqual([
      ['minDomains', 'may only be set when whenUnsatisfiable is DoNotSchedule'],
    ]);
  });

  it('matchLabelKeys need a selector and must not repeat its keys', () => {
    const { labelSelector: _, ...noSelector } = base;
    expect(errorsOf({ ...noSelector, matchLabelKeys: ['x'] })).toEqual([
      ['matchLabelKeys', 'must not be set when labelSelector is not set'],
    ]);
    expect(errorsOf({ ...base, matchLabelKeys: ['app'] })).toEqual([
      ['matchLabelKeys[0]', '"app" is already in labelSelector; it must not be in matchLabelKeys too'],
    ]);
  });
});
