import { fieldErrors } from '@nodewright/core/apis';
import { describe, expect, test } from 'vitest';
import { gceNodeClassSchema } from './gcenodeclass.js';
import { gceNodeClassRuleCases } from './rule-cases.js';

function errorsOf(value: unknown) {
  const result = gceNodeClassSchema.safeParse(value);
  return result.success
    ? []
    : fieldErrors(result.error.issues).map(({ path, message }) => ({ path, message }));
}

describe.each(gceNodeClassRuleCases)('GCENodeClass: $rule', (c) => {
  test('the valid example passes', () => {
    expect(errorsOf(c.valid)).toEqual([]);
  });
  test('the invalid example fails at its path with its message, and only there', () => {
    expect(errorsOf(c.invalid)).toEqual([{ path: c.path, message: c.message }]);
  });
});
