import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isQuantity } from '../common/primitives.js';
import { fieldErrors } from '../field-errors.js';
import {
  approximateQuantity,
  nonNegativeQuantitySchema,
  quantitySchema,
  resourceListSchema,
} from './quantity.js';

describe('quantity syntax', () => {
  it.each(['1', '100m', '1.5Gi', '512Mi', '2k', '1e3', '1E-2', '+3', '-1', '.5', '5.', '10Ei', '3n', '7u'])(
    'accepts %s',
    (text) => {
      expect(isQuantity(text)).toBe(true);
    },
  );

  it.each(['', 'Gi', '1 Gi', '1gi', '1KiB', '1.2.3', '1e', 'one', '1mi', '--1'])('rejects %j', (text) => {
    expect(isQuantity(text)).toBe(false);
  });
});

describe('quantitySchema', () => {
  it('normalises YAML numbers to strings', () => {
    expect(quantitySchema.parse(2)).toBe('2');
    expect(quantitySchema.parse(0.5)).toBe('0.5');
  });

  it('explains malformed quantities', () => {
    const result = quantitySchema.safeParse('2 cores');
    expect(fieldErrors(result.error?.issues ?? [])[0]?.message).toBe(
      '"2 cores" must be a Kubernetes quantity: a number with an optional suffix such as 100m, 2, 1.5Gi or 512Mi',
    );
  });

  it('rejects non-finite numbers', () => {
    expect(quantitySchema.safeParse(Number.POSITIVE_INFINITY).success).toBe(false);
  });

  it('every finite number parses, with the same value', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const text = quantitySchema.parse(n);
        const error = Math.abs(approximateQuantity(text) - n);
        expect(error).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(n)));
      }),
    );
  });
});

describe('nonNegativeQuantitySchema', () => {
  it('rejects negative quantities', () => {
    expect(nonNegativeQuantitySchema.safeParse('-1').success).toBe(false);
    expect(nonNegativeQuantitySchema.safeParse('0').success).toBe(true);
  });
});

describe('resourceListSchema', () => {
  it('checks resource names and quantities', () => {
    expect(resourceListSchema.parse({ cpu: 1, memory: '1Gi', 'nvidia.com/gpu': '1' })).toEqual({
      cpu: '1',
      memory: '1Gi',
      'nvidia.com/gpu': '1',
    });
    const errors = fieldErrors(
      resourceListSchema.safeParse({ 'Bad Name': '1', cpu: 'lots' }).error?.issues ?? [],
    );
    expect(errors.map((e) => e.path)).toEqual(['["Bad Name"]', 'cpu']);
  });
});

describe('approximateQuantity', () => {
  it.each([
    ['100m', 0.1],
    ['1Ki', 1024],
    ['1.5Gi', 1.5 * 2 ** 30],
    ['2k', 2000],
    ['1e3', 1000],
    ['-2', -2],
  ])('%s is %d', (text, value) => {
    expect(approximateQuantity(text)).toBeCloseTo(value, 9);
  });

  it('is NaN for text that is not a quantity', () => {
    expect(approximateQuantity('lots')).toBeNaN();
  });
});
