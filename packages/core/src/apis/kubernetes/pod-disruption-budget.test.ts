import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import { intOrPercentSchema, podDisruptionBudgetSchema } from './pod-disruption-budget.js';

const pdb = (spec: Record<string, unknown>, status?: Record<string, unknown>) => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'db', namespace: 'data' },
  spec,
  ...(status === undefined ? {} : { status }),
});
const errorsOf = (value: unknown) =>
  fieldErrors(podDisruptionBudgetSchema.safeParse(value).error?.issues ?? []).map((e) => [e.path, e.message]);

describe('intOrPercentSchema', () => {
  it.each([0, 3, '0%', '50%', '100%'])('accepts %j', (v) => {
    expect(intOrPercentSchema.parse(v)).toBe(v);
  });

  it.each([-1, 1.5, '1', '101%', '50 %', 'half'])('rejects %j', (v) => {
    expect(intOrPercentSchema.safeParse(v).success).toBe(false);
  });
});

describe('podDisruptionBudgetSchema', () => {
  it('parses selector, budgets and disruptionsAllowed', () => {
    const parsed = podDisruptionBudgetSchema.parse(
      pdb({ selector: { matchLabels: { app: 'db' } }, maxUnavailable: '25%' }, { disruptionsAllowed: 0 }),
    );
    expect(parsed.spec.maxUnavailable).toBe('25%');
    expect(parsed.status?.disruptionsAllowed).toBe(0);
    expect(parsed.metadata.namespace).toBe('data');
  });

  it('minAvailable and maxUnavailable exclude each other', () => {
    expect(errorsOf(pdb({ minAvailable: 1, maxUnavailable: 1 }))).toEqual([
      ['spec.maxUnavailable', 'must not be set together with minAvailable'],
    ]);
  });

  it('explains a bare-number string and a percentage over 100', () => {
    expect(errorsOf(pdb({ minAvailable: '1' }))).toEqual([
      ['spec.minAvailable', '"1" must be a whole number or a percentage such as 50%'],
    ]);
    expect(errorsOf(pdb({ maxUnavailable: '150%' }))).toEqual([
      ['spec.maxUnavailable', 'must not be more than 100%'],
    ]);
  });

  it('rejects a negative disruptionsAllowed', () => {
    expect(errorsOf(pdb({}, { disruptionsAllowed: -1 }))).toEqual([
      ['status.disruptionsAllowed', 'must not be negative'],
    ]);
  });
});
