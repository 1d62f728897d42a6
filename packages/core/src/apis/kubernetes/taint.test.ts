import { describe, expect, it } from 'vitest';
import { fieldErrors } from '../field-errors.js';
import { nodeTaintSchema, tolerationSchema } from './taint.js';

const tolerationErrors = (value: unknown) =>
  fieldErrors(tolerationSchema.safeParse(value).error?.issues ?? []).map((e) => [e.path, e.message]);

describe('nodeTaintSchema', () => {
  it('accepts a taint and rejects an unknown effect', () => {
    expect(nodeTaintSchema.safeParse({ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }).success).toBe(
      true,
    );
    const errors = fieldErrors(
      nodeTaintSchema.safeParse({ key: 'dedicated', effect: 'NoEvict' }).error?.issues ?? [],
    );
    expect(errors).toEqual([
      expect.objectContaining({
        path: 'effect',
        message: 'must be one of NoSchedule, PreferNoSchedule, NoExecute',
      }),
    ]);
  });

  it('requires key and effect', () => {
    const errors = fieldErrors(nodeTaintSchema.safeParse({}).error?.issues ?? []);
    expect(errors.map((e) => [e.path, e.message])).toEqual([
      ['key', 'is required'],
      ['effect', 'must be one of NoSchedule, PreferNoSchedule, NoExecute'],
    ]);
  });
});

describe('tolerationSchema', () => {
  it.each([
    { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' },
    { key: 'dedicated', value: 'gpu' },
    { key: 'dedicated', operator: 'Exists' },
    { operator: 'Exists' },
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'a', operator: 'Exists', effect: '' },
  ])('accepts %j', (t) => {
    expect(tolerationSchema.safeParse(t).success).toBe(true);
  });

  it('Exists takes no value', () => {
    expect(tolerationErrors({ key: 'a', operator: 'Exists', value: 'x' })).toEqual([
      ['value', 'must be empty when operator is Exists'],
    ]);
  });

  it('an empty key needs Exists', () => {
    expect(tolerationErrors({ value: 'x' })).toEqual([
      ['operator', 'must be Exists when key is empty (an empty key tolerates every taint)'],
    ]);
  });

  it('tolerationSeconds needs NoExecute', () => {
    expect(
      tolerationErrors({ key: 'a', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 5 }),
    ).toEqual([['effect', 'must be NoExecute when tolerationSeconds is set']]);
  });

  it('checks key and value syntax and the operator', () => {
    expect(tolerationErrors({ key: 'bad key', value: 'bad value' }).map(([path]) => path)).toEqual([
      'key',
      'value',
    ]);
    expect(tolerationErrors({ key: 'a', operator: 'In' })).toEqual([
      ['operator', 'must be one of Exists, Equal'],
    ]);
  });
});
