import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { QuantityFormat } from './format.js';
import { QuantityError } from './parse.js';
import { Quantity } from './quantity.js';

const U = 1_000_000_000n;
const KI = 1024n;

/** [input, expected nanos, expected format] */
const valid: ReadonlyArray<readonly [string, bigint, QuantityFormat]> = [
  ['0', 0n, 'DecimalSI'],
  ['0n', 0n, 'DecimalSI'],
  ['0m', 0n, 'DecimalSI'],
  ['0k', 0n, 'DecimalSI'],
  ['0Ki', 0n, 'BinarySI'],
  ['0Mi', 0n, 'BinarySI'],
  ['0Ti', 0n, 'BinarySI'],
  ['1', U, 'DecimalSI'],
  ['+1', U, 'DecimalSI'],
  ['-2', -2n * U, 'DecimalSI'],
  ['0.5', U / 2n, 'DecimalSI'],
  ['007', 7n * U, 'DecimalSI'],
  // every decimal SI suffix
  ['5n', 5n, 'DecimalSI'],
  ['4u', 4_000n, 'DecimalSI'],
  ['3m', 3_000_000n, 'DecimalSI'],
  ['8k', 8_000n * U, 'DecimalSI'],
  ['50k', 50_000n * U, 'DecimalSI'],
  ['7M', 7_000_000n * U, 'DecimalSI'],
  ['6G', 6n * 10n ** 9n * U, 'DecimalSI'],
  ['5T', 5n * 10n ** 12n * U, 'DecimalSI'],
  ['2P', 2n * 10n ** 15n * U, 'DecimalSI'],
  ['1E', 10n ** 18n * U, 'DecimalSI'],
  ['12E', 12n * 10n ** 18n * U, 'DecimalSI'],
  // every binary suffix
  ['1Ki', KI * U, 'BinarySI'],
  ['8Ki', 8n * KI * U, 'BinarySI'],
  ['7Mi', 7n * KI ** 2n * U, 'BinarySI'],
  ['6Gi', 6n * KI ** 3n * U, 'BinarySI'],
  ['5Ti', 5n * KI ** 4n * U, 'BinarySI'],
  ['4Pi', 4n * KI ** 5n * U, 'BinarySI'],
  ['3Ei', 3n * KI ** 6n * U, 'BinarySI'],
  // decimal exponents
  ['1E-3', 1_000_000n, 'DecimalExponent'],
  ['1e3', 1_000n * U, 'DecimalExponent'],
  ['1E6', 1_000_000n * U, 'DecimalExponent'],
  ['12e6', 12_000_000n * U, 'DecimalExponent'],
  ['1.2e3', 1_200n * U, 'DecimalExponent'],
  ['1.3E+6', 1_300_000n * U, 'DecimalExponent'],
  ['0.5e-2', 5_000_000n, 'DecimalExponent'],
  ['0.5e0', U / 2n, 'DecimalExponent'],
  // fractions
  ['100.035k', 100_035n * U, 'DecimalSI'],
  ['0.0005k', U / 2n, 'DecimalSI'],
  ['10.035M', 10_035_000n * U, 'DecimalSI'],
  ['6.987654321G', 6_987_654_321n * U, 'DecimalSI'],
  ['1.01E', 101n * 10n ** 16n * U, 'DecimalSI'],
  ['100.035Ki', 102_435_840_000_000n, 'BinarySI'],
  ['0.5Mi', 524_288n * U, 'BinarySI'],
  ['0.05Gi', 53_687_091_200_000_000n, 'BinarySI'],
  ['0.025Ti', 27_487_790_694_400_000_000n, 'BinarySI'],
  ['1.5Gi', 1_610_612_736n * U, 'BinarySI'],
  // anything below one nano-unit rounds up, away from zero
  ['3.001n', 4n, 'DecimalSI'],
  ['1.1E-9', 2n, 'DecimalExponent'],
  ['0.0000000001', 1n, 'DecimalSI'],
  ['0.00000012345', 124n, 'DecimalSI'],
  ['0.5e-9', 1n, 'DecimalExponent'],
  ['0.9n', 1n, 'DecimalSI'],
  ['.484785E-7466', 1n, 'DecimalExponent'],
  ['-.484785E-7466', -1n, 'DecimalExponent'],
  ['1e-2147483647', 1n, 'DecimalExponent'],
  // a binary value in (0, 1) is reported as DecimalSI; binary values cap at 2^63-1
  ['0.000000000001Ki', 2n, 'DecimalSI'],
  ['9Ei', (2n ** 63n - 1n) * U, 'BinarySI'],
  ['9223372036854775807Ki', (2n ** 63n - 1n) * U, 'BinarySI'],
  ['-9Ei', -(2n ** 63n - 1n) * U, 'BinarySI'],
  // Kubernetes' scanner is laxer than its regular expression
  ['.001', 1_000_000n, 'DecimalSI'],
  ['.0001k', 100_000_000n, 'DecimalSI'],
  ['1.', U, 'DecimalSI'],
  ['1.G', 10n ** 9n * U, 'DecimalSI'],
  ['+', 0n, 'DecimalSI'],
  ['-', 0n, 'DecimalSI'],
  ['.', 0n, 'DecimalSI'],
  ['-.', 0n, 'DecimalSI'],
  ['Ki', 0n, 'BinarySI'],
  ['m', 0n, 'DecimalSI'],
  ['e3', 0n, 'DecimalExponent'],
];

const invalid: ReadonlyArray<readonly [string, string]> = [
  ['', 'quantities must match the regular expression'],
  ['1.5.5', 'quantities must match the regular expression'],
  ['1.1.M', 'quantities must match the regular expression'],
  ['1+1.0M', 'quantities must match the regular expression'],
  ['aoeu', 'quantities must match the regular expression'],
  [' 1', 'quantities must match the regular expression'],
  ['1 ', 'quantities must match the regular expression'],
  ['1e3.5', 'quantities must match the regular expression'],
  ['0.1mi', "unable to parse quantity's suffix"],
  ['0.1am', 'quantities must match the regular expression'],
  ['.5i', "unable to parse quantity's suffix"],
  ['1i', "unable to parse quantity's suffix"],
  ['-3.01i', "unable to parse quantity's suffix"],
  ['-3.01e-', "unable to parse quantity's suffix"],
  ['1e', "unable to parse quantity's suffix"],
  ['1ee3', "unable to parse quantity's suffix"],
  ['1Ki3', "unable to parse quantity's suffix"],
  ['1KI', 'quantities must match the regular expression'],
  ['1e4294967297', "unable to parse quantity's suffix"],
  ['1E2147483648', "unable to parse quantity's suffix"],
  ['1E-2147483648', "unable to parse quantity's suffix"],
  ['Pi', 'unable to parse numeric part of quantity'],
  ['Ei', 'unable to parse numeric part of quantity'],
  ['e-10', 'unable to parse numeric part of quantity'],
  ['1e2147483647', 'magnitude is 10^100 or more'],
  ['1e100', 'magnitude is 10^100 or more'],
];

describe('Quantity.parse', () => {
  it.each(valid)('parses %j', (input, nanos, format) => {
    const q = Quantity.parse(input);
    expect(q.nanos).toBe(nanos);
    expect(q.format).toBe(format);
  });

  it.each(invalid)('rejects %j', (input, reason) => {
    expect(() => Quantity.parse(input)).toThrow(QuantityError);
    expect(() => Quantity.parse(input)).toThrow(
      `${JSON.stringify(input)} is not a valid quantity: ${reason}`,
    );
  });

  it('accepts the largest decimal magnitude below the limit', () => {
    expect(Quantity.parse('9e99').nanos).toBe(9n * 10n ** 108n);
  });

  it('reads JSON numbers through their shortest spelling', () => {
    expect(Quantity.parse(1).toString()).toBe('1');
    expect(Quantity.parse(0.5).toString()).toBe('500m');
    expect(Quantity.parse(0.1).nanos).toBe(100_000_000n);
    expect(Quantity.parse(-2).toString()).toBe('-2');
    expect(Quantity.parse(1e21).nanos).toBe(10n ** 21n * U);
    expect(Quantity.parse(1e-10).nanos).toBe(1n);
    expect(() => Quantity.parse(Number.NaN)).toThrow('"NaN" is not a valid quantity: not a finite number');
    expect(() => Quantity.parse(Number.POSITIVE_INFINITY)).toThrow(QuantityError);
  });

  it('safeParse reports the message instead of throwing', () => {
    expect(Quantity.safeParse('1.5.5')).toEqual({
      success: false,
      error: expect.stringContaining('"1.5.5" is not a valid quantity'),
    });
    const ok = Quantity.safeParse('2Gi');
    expect(ok.success && ok.quantity.toString()).toBe('2Gi');
  });

  it('is negation-symmetric for every valid input', () => {
    for (const [input, nanos, format] of valid) {
      if (input.startsWith('-') || input.startsWith('+')) continue;
      const neg = Quantity.parse(`-${input}`);
      expect(neg.nanos).toBe(-nanos);
      expect(neg.format).toBe(format);
      expect(Quantity.parse(`+${input}`).nanos).toBe(nanos);
    }
  });

  /** An independent oracle: the exact rational value, rounded up to nano-units by ceiling division. */
  function oracleNanos(intPart: string, fracPart: string, suffix: string): bigint {
    const decimal: Record<string, number> = {
      '': 0,
      n: -9,
      u: -6,
      m: -3,
      k: 3,
      M: 6,
      G: 9,
      T: 12,
      P: 15,
      E: 18,
    };
    const binary: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
    let num = BigInt(intPart + fracPart || '0') * U;
    let den = 10n ** BigInt(fracPart.length);
    if (suffix in binary) {
      num *= 2n ** BigInt(binary[suffix]!);
    } else {
      const exp = suffix in decimal ? decimal[suffix]! : Number(suffix.slice(1));
      if (exp >= 0) num *= 10n ** BigInt(exp);
      else den *= 10n ** BigInt(-exp);
    }
    const q = num / den;
    const nanos = q * den === num ? q : q + 1n;
    const cap = (2n ** 63n - 1n) * U;
    return suffix in binary && nanos > cap ? cap : nanos;
  }

  it('agrees with an exact rational oracle on generated spellings', () => {
    const suffix = fc.oneof(
      fc.constantFrom('', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'),
      fc.tuple(fc.constantFrom('e', 'E'), fc.integer({ min: -30, max: 30 })).map(([e, n]) => `${e}${n}`),
    );
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.stringMatching(/^[0-9]{1,20}$/),
        fc.option(fc.stringMatching(/^[0-9]{0,15}$/), { nil: undefined }),
        suffix,
        (negative, intPart, fracPart, suf) => {
          const input = `${negative ? '-' : ''}${intPart}${fracPart === undefined ? '' : `.${fracPart}`}${suf}`;
          const expected = oracleNanos(intPart, fracPart ?? '', suf);
          expect(Quantity.parse(input).nanos).toBe(negative ? -expected : expected);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
