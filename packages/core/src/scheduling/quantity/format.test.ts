import { describe, expect, it } from 'vitest';
import { formatQuantity, type QuantityFormat } from './format.js';
import { Quantity } from './quantity.js';

const U = 1_000_000_000n;
const KI = 1024n;

/** [nanos, format, canonical string] */
const canonical: ReadonlyArray<readonly [bigint, QuantityFormat, string]> = [
  [KI ** 3n * U, 'BinarySI', '1Gi'],
  [300n * KI ** 2n * U, 'BinarySI', '300Mi'],
  [6n * KI * U, 'BinarySI', '6Ki'],
  [1001n * KI ** 3n * U, 'BinarySI', '1001Gi'],
  [KI ** 4n * U, 'BinarySI', '1Ti'],
  [1536n * KI ** 2n * U, 'BinarySI', '1536Mi'],
  [5n * U, 'BinarySI', '5'],
  [U / 2n, 'BinarySI', '500m'],
  [1025n * U, 'BinarySI', '1025'],
  [2000n * U, 'BinarySI', '2000'],
  [1023n * U, 'BinarySI', '1023'],
  [1024n * U, 'BinarySI', '1Ki'],
  [1_234_567_000_000n, 'BinarySI', '1234567m'],
  [(1024n * U * 3n) / 2n, 'BinarySI', '1536'],
  [1024n * U + 1n, 'BinarySI', '1024000000001n'],
  [KI ** 6n * U, 'BinarySI', '1Ei'],
  [KI ** 6n * 1024n * U, 'BinarySI', '1180591620717411303424'],
  [10n ** 70n * U, 'BinarySI', '10e69'],
  [2n * 10n ** 70n * U, 'BinarySI', '20e69'],
  [10n ** 72n * U, 'BinarySI', '1e72'],
  [10n ** 9n * U, 'DecimalSI', '1G'],
  [1_000_000n, 'DecimalSI', '1m'],
  [80_000_000n, 'DecimalSI', '80m'],
  [1_080_000_000n, 'DecimalSI', '1080m'],
  [U, 'DecimalSI', '1'],
  [U / 2n, 'DecimalSI', '500m'],
  [300n * 10n ** 6n * U, 'DecimalSI', '300M'],
  [10n ** 12n * U, 'DecimalSI', '1T'],
  [10n ** 15n * U, 'DecimalSI', '1P'],
  [10n ** 18n * U, 'DecimalSI', '1E'],
  [10n ** 21n * U, 'DecimalSI', '1e21'],
  [5n * 10n ** 21n * U, 'DecimalSI', '5e21'],
  [10n ** 24n * U, 'DecimalSI', '1e24'],
  [1_234_567n * 10n ** 6n * U, 'DecimalSI', '1234567M'],
  [3000n * U, 'DecimalSI', '3k'],
  [1n, 'DecimalSI', '1n'],
  [80n, 'DecimalSI', '80n'],
  [1080n, 'DecimalSI', '1080n'],
  [1000n, 'DecimalSI', '1u'],
  [80_000n, 'DecimalSI', '80u'],
  [1_080_000n, 'DecimalSI', '1080u'],
  [10n ** 9n * U, 'DecimalExponent', '1e9'],
  [1_000_000n, 'DecimalExponent', '1e-3'],
  [1n, 'DecimalExponent', '1e-9'],
  [80_000_000n, 'DecimalExponent', '80e-3'],
  [300n * 10n ** 6n * U, 'DecimalExponent', '300e6'],
  [10n ** 12n * U, 'DecimalExponent', '1e12'],
  [1000n * U, 'DecimalExponent', '1e3'],
  [3000n * U, 'DecimalExponent', '3e3'],
  [U + U / 2n, 'DecimalExponent', '1500e-3'],
  [U, 'DecimalExponent', '1'],
  [0n, 'DecimalSI', '0'],
  [0n, 'BinarySI', '0'],
  [0n, 'DecimalExponent', '0'],
];

describe('formatQuantity', () => {
  it.each(canonical)('%s nanos as %s is %j', (nanos, format, expected) => {
    expect(formatQuantity(nanos, format)).toBe(expected);
    if (nanos !== 0n) expect(formatQuantity(-nanos, format)).toBe(`-${expected}`);
  });

  it('emits strings that parse back to the same value', () => {
    for (const [nanos, format, expected] of canonical) {
      const reparsed = Quantity.parse(expected);
      expect(reparsed.nanos).toBe(nanos);
      // A binary value printed without a binary suffix (2000) reparses as decimal (2k), as in Kubernetes.
      if (format !== 'BinarySI') expect(reparsed.toString()).toBe(expected);
      expect(Quantity.parse(reparsed.toString()).toString()).toBe(reparsed.toString());
    }
  });

  it.each([
    ['1024Mi', '1Gi'],
    ['1000M', '1G'],
    ['1.5Gi', '1536Mi'],
    ['1000m', '1'],
    ['0.5', '500m'],
    ['1e3', '1e3'],
    ['12e6', '12e6'],
    ['1.5', '1500m'],
    ['.001Ki', '1024m'],
    ['.000001Ki', '1024u'],
    ['.000000001Ki', '1024n'],
    ['.000000000001Ki', '2n'],
    ['100.035k', '100035'],
    ['0.5Ki', '512'],
    ['1000E', '1e21'],
    ['-9.01', '-9010m'],
  ])('parse(%j).toString() is %j', (input, expected) => {
    expect(Quantity.parse(input).toString()).toBe(expected);
  });

  it('formats constructed quantities as Kubernetes does', () => {
    expect(Quantity.fromMilli(1).toString()).toBe('1m');
    expect(Quantity.fromMilli(1000).toString()).toBe('1');
    expect(Quantity.fromMilli(1_234_000).toString()).toBe('1234');
    expect(Quantity.fromMilli(1024, 'BinarySI').toString()).toBe('1024m');
    expect(Quantity.fromMilli(1024 * 1024, 'BinarySI').toString()).toBe('1048576m');
    expect(Quantity.fromUnits(1000).toString()).toBe('1k');
    expect(Quantity.fromUnits(1_234_000).toString()).toBe('1234k');
    expect(Quantity.fromUnits(1024, 'BinarySI').toString()).toBe('1Ki');
    expect(Quantity.fromUnits(1024 * 1024, 'BinarySI').toString()).toBe('1Mi');
    expect(Quantity.fromUnits(1_000_000, 'DecimalExponent').toString()).toBe('1e6');
    expect(JSON.stringify({ cpu: Quantity.parse('1500m') })).toBe('{"cpu":"1500m"}');
  });
});
