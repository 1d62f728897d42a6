import { describe, expect, test } from 'vitest';
import { isLabelValue, isQualifiedName, isQuantity, quantity, resourceList } from './primitives.js';

describe('qualified names', () => {
  test.each([
    'a',
    'app',
    'example.com/team',
    'node.kubernetes.io/instance-type',
    'A_b.c-d',
    `x/${'a'.repeat(63)}`,
  ])('%s is valid', (key) => expect(isQualifiedName(key)).toBe(true));
  test.each([
    '',
    '-a',
    'a-',
    'a b',
    'Example.com/team',
    'a/b/c',
    '/a',
    'a/',
    `x/${'a'.repeat(64)}`,
    `${'a'.repeat(64)}.com/x`,
  ])('%s is invalid', (key) => expect(isQualifiedName(key)).toBe(false));
});

test('label values allow empty and at most 63 characters', () => {
  expect(isLabelValue('')).toBe(true);
  expect(isLabelValue('m5.large')).toBe(true);
  expect(isLabelValue('a'.repeat(63))).toBe(true);
  expect(isLabelValue('a'.repeat(64))).toBe(false);
  expect(isLabelValue('a/b')).toBe(false);
});

describe('quantities', () => {
  test.each(['1', '100m', '2Gi', '1.5', '.5', '1e3', '-1', '+4k', '10M'])('%s is a quantity', (q) =>
    expect(isQuantity(q)).toBe(true),
  );
  test.each(['', 'lots', '1 Gi', '1GB', '1.2.3', 'Gi'])('%s is not a quantity', (q) =>
    expect(isQuantity(q)).toBe(false),
  );

  test('integers and strings both parse to the string form', () => {
    expect(resourceList().parse({ cpu: 4, memory: '16Gi' })).toEqual({ cpu: '4', memory: '16Gi' });
  });

  test('fractions, booleans and bad strings are rejected with one message', () => {
    for (const bad of [0.5, true, 'lots']) {
      expect(
        quantity()
          .safeParse(bad)
          .error?.issues.map((i) => i.message),
      ).toEqual(['must be a quantity such as 500m, 2Gi or 4']);
    }
  });
});
