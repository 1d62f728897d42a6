import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type QuantityFormat, QuantityFormats } from './format.js';
import { Quantity } from './quantity.js';

const U = 1_000_000_000n;
const MAX_BINARY_NANOS = (2n ** 63n - 1n) * U;

const formatArb = fc.constantFrom<QuantityFormat>(...Object.values(QuantityFormats));

/** Mostly "round" values like real manifests hold, plus arbitrary nano counts. */
const nanosArb = fc.oneof(
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
  fc
    .tuple(fc.bigInt({ min: -5000n, max: 5000n }), fc.integer({ min: 0, max: 27 }))
    .map(([k, e]) => k * 10n ** BigInt(e)),
  fc
    .tuple(fc.bigInt({ min: -5000n, max: 5000n }), fc.integer({ min: 0, max: 6 }))
    .map(([k, e]) => k * 1024n ** BigInt(e) * U),
);

const quantityArb = fc.tuple(nanosArb, formatArb).map(([nanos, format]) => {
  // Parsing caps binary quantities at 2^63-1, so a round trip is only exact below it.
  const bounded =
    format === 'BinarySI' && (nanos > MAX_BINARY_NANOS || nanos < -MAX_BINARY_NANOS) ? nanos / 1000n : nanos;
  return Quantity.fromNanos(bounded, format);
});

describe('Quantity arithmetic', () => {
  it('adds and subtracts exactly', () => {
    const a = Quantity.parse('100m');
    const b = Quantity.parse('0.2');
    expect(a.add(b).toString()).toBe('300m');
    expect(Quantity.parse('1Gi').sub(Quantity.parse('512Mi')).toString()).toBe('512Mi');
    expect(Quantity.parse('0.1').add(Quantity.parse('0.2')).equals(Quantity.parse('0.3'))).toBe(true);
    expect(Quantity.parse('1').sub(Quantity.parse('1500m')).toString()).toBe('-500m');
  });

  it('keeps the left format, or the right one when the left is zero', () => {
    const zero = Quantity.parse('0');
    expect(zero.add(Quantity.parse('1Gi')).toString()).toBe('1Gi');
    expect(Quantity.parse('1Gi').add(zero).toString()).toBe('1Gi');
    expect(zero.add(Quantity.parse('100m')).toString()).toBe('100m');
    expect(zero.sub(Quantity.parse('1Gi')).toString()).toBe('-1Gi');
    expect(Quantity.parse('10').sub(Quantity.parse('1Ki')).format).toBe('DecimalSI');
    expect(Quantity.fromUnits(10, 'BinarySI').sub(Quantity.parse('1')).format).toBe('BinarySI');
    expect(Quantity.parse('1Ki').add(Quantity.parse('1k')).toString()).toBe('2024');
    expect(Quantity.zero('BinarySI').add(Quantity.zero()).format).toBe('DecimalSI');
  });

  it('negates, multiplies and compares', () => {
    expect(Quantity.parse('9.01').neg().toString()).toBe('-9010m');
    expect(Quantity.parse('1536Mi').mul(2).toString()).toBe('3Gi');
    expect(Quantity.parse('250m').mul(4n).toString()).toBe('1');
    expect(Quantity.parse('1Ei').mul(1024).toString()).toBe('1180591620717411303424');
    expect(() => Quantity.parse('1').mul(1.5)).toThrow(RangeError);
    expect(Quantity.parse('10000T').cmp(Quantity.parse('100Gi'))).toBe(1);
    expect(Quantity.parse('50m').cmp(Quantity.parse('100m'))).toBe(-1);
    expect(Quantity.parse('1').cmp(Quantity.parse('1000m'))).toBe(0);
    expect(Quantity.parse('1').equals(Quantity.parse('1000m'))).toBe(true);
    expect(Quantity.parse('-1m').sign()).toBe(-1);
    expect(Quantity.parse('0Gi').isZero()).toBe(true);
  });

  it('min and max pick by value', () => {
    const small = Quantity.parse('1Gi');
    const big = Quantity.parse('2G');
    expect(small.min(big)).toBe(small);
    expect(small.max(big)).toBe(big);
    expect(big.min(small)).toBe(small);
    const same = Quantity.parse('1024Mi');
    expect(small.max(same)).toBe(small);
  });

  it.each([
    ['-.484785E-1', -1n, -49n],
    ['.484785E-1', 1n, 49n],
    ['-0.0005', -1n, -1n],
    ['0.0005', 1n, 1n],
    ['-1500m', -2n, -1500n],
    ['1500m', 2n, 1500n],
    ['-9.5000000001Gi', -10200547329n, -10200547328108n],
    ['9.5000000001Gi', 10200547329n, 10200547328108n],
    ['-1', -1n, -1000n],
    ['0', 0n, 0n],
  ])('%s rounds away from zero to units %d and milli %d', (input, units, milli) => {
    const q = Quantity.parse(input);
    expect(q.toUnits()).toBe(units);
    expect(q.toMilli()).toBe(milli);
    expect(q.toMilliNumber()).toBe(Number(milli));
  });

  it('converts from and to numbers', () => {
    expect(Quantity.fromNumber(0.25).toString()).toBe('250m');
    expect(Quantity.fromNumber(1024, 'BinarySI').toString()).toBe('1Ki');
    expect(Quantity.parse('1536Mi').toNumber()).toBe(1_610_612_736);
    expect(Quantity.parse('-1500m').toNumber()).toBe(-1.5);
    expect(() => Quantity.fromMilli(0.5)).toThrow(RangeError);
    expect(Quantity.fromMilli(2n ** 70n).toMilli()).toBe(2n ** 70n);
  });
});

describe('Quantity properties', () => {
  it('parse(format(q)) equals q, and formatting is stable', () => {
    fc.assert(
      fc.property(quantityArb, (q) => {
        const text = q.toString();
        const back = Quantity.parse(text);
        expect(back.nanos).toBe(q.nanos);
        // Binary values printed without a binary suffix reparse as decimal, as in Kubernetes;
        // after that one step the canonical string is a fixed point.
        if (q.format !== 'BinarySI') expect(back.toString()).toBe(text);
        expect(Quantity.parse(back.toString()).toString()).toBe(back.toString());
      }),
      { numRuns: 3000 },
    );
  });

  it('add and sub are inverses, add commutes in value', () => {
    fc.assert(
      fc.property(quantityArb, quantityArb, (a, b) => {
        expect(a.add(b).sub(b).equals(a)).toBe(true);
        expect(a.sub(b).add(b).equals(a)).toBe(true);
        expect(a.add(b).equals(b.add(a))).toBe(true);
        expect(a.add(a.neg()).isZero()).toBe(true);
        expect(a.neg().neg().equals(a)).toBe(true);
      }),
    );
  });

  it('cmp is a total order consistent with subtraction, min and max', () => {
    fc.assert(
      fc.property(quantityArb, quantityArb, quantityArb, (a, b, c) => {
        expect(a.cmp(b) + b.cmp(a)).toBe(0);
        expect(a.cmp(b)).toBe(a.sub(b).sign());
        if (a.cmp(b) <= 0 && b.cmp(c) <= 0) expect(a.cmp(c)).toBeLessThanOrEqual(0);
        expect(a.min(b).cmp(a.max(b))).toBeLessThanOrEqual(0);
        expect(a.min(b).add(a.max(b)).equals(a.add(b))).toBe(true);
        const sorted = [a, b, c].sort((x, y) => x.cmp(y));
        expect(sorted[0]!.cmp(sorted[1]!)).toBeLessThanOrEqual(0);
        expect(sorted[1]!.cmp(sorted[2]!)).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('mul by k equals k additions', () => {
    fc.assert(
      fc.property(quantityArb, fc.integer({ min: 0, max: 20 }), (q, k) => {
        let sum = Quantity.zero();
        for (let i = 0; i < k; i++) sum = sum.add(q);
        expect(q.mul(k).equals(sum)).toBe(true);
      }),
    );
  });

  it('milli conversions round-trip and toNumber approximates', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), (milli) => {
        const q = Quantity.fromMilli(milli);
        expect(q.toMilli()).toBe(milli);
        const approx = Number(milli) / 1000;
        expect(Math.abs(q.toNumber() - approx)).toBeLessThanOrEqual(Math.abs(approx) * 1e-12 + 1e-12);
      }),
    );
  });
});
