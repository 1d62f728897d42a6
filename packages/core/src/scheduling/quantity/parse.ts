import { type QuantityFormat, QuantityFormats } from './format.js';

/** The shape Kubernetes names in its own error message (its scanner is in fact a little laxer). */
export const QUANTITY_PATTERN = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

const ERR_FORMAT = `quantities must match the regular expression '${QUANTITY_PATTERN}'`;
const ERR_NUMERIC = 'unable to parse numeric part of quantity';
const ERR_SUFFIX = "unable to parse quantity's suffix";

/**
 * Decimal quantities at or above 10^MAX_DECIMAL_DIGITS are rejected. Kubernetes keeps them in an
 * unbounded decimal; a bigint of 10^(2^31) is not something to build, and nothing real comes near.
 */
export const MAX_DECIMAL_DIGITS = 100;

/** A string (or number) that is not a Kubernetes quantity. */
export class QuantityError extends Error {
  override readonly name = 'QuantityError';
  /** The rejected input, as given. */
  readonly input: string;
  constructor(input: string, reason: string) {
    super(`${JSON.stringify(input)} is not a valid quantity: ${reason}`);
    this.input = input;
  }
}

/** The exact value of a parsed quantity in nano-units, and the format family its suffix chose. */
export interface ParsedQuantity {
  readonly nanos: bigint;
  readonly format: QuantityFormat;
}

const NANOS_PER_UNIT = 1_000_000_000n;
/** Kubernetes caps binary-suffixed quantities at 2^63-1 units. */
const MAX_BINARY_NANOS = (2n ** 63n - 1n) * NANOS_PER_UNIT;
const MAX_INT32 = 2_147_483_647;

interface Suffix {
  readonly base: 2 | 10;
  readonly exponent: number;
  readonly format: QuantityFormat;
}

const FIXED_SUFFIXES: ReadonlyMap<string, Suffix> = new Map<string, Suffix>([
  ['', { base: 10, exponent: 0, format: QuantityFormats.DecimalSI }],
  ['n', { base: 10, exponent: -9, format: QuantityFormats.DecimalSI }],
  ['u', { base: 10, exponent: -6, format: QuantityFormats.DecimalSI }],
  ['m', { base: 10, exponent: -3, format: QuantityFormats.DecimalSI }],
  ['k', { base: 10, exponent: 3, format: QuantityFormats.DecimalSI }],
  ['M', { base: 10, exponent: 6, format: QuantityFormats.DecimalSI }],
  ['G', { base: 10, exponent: 9, format: QuantityFormats.DecimalSI }],
  ['T', { base: 10, exponent: 12, format: QuantityFormats.DecimalSI }],
  ['P', { base: 10, exponent: 15, format: QuantityFormats.DecimalSI }],
  ['E', { base: 10, exponent: 18, format: QuantityFormats.DecimalSI }],
  ['Ki', { base: 2, exponent: 10, format: QuantityFormats.BinarySI }],
  ['Mi', { base: 2, exponent: 20, format: QuantityFormats.BinarySI }],
  ['Gi', { base: 2, exponent: 30, format: QuantityFormats.BinarySI }],
  ['Ti', { base: 2, exponent: 40, format: QuantityFormats.BinarySI }],
  ['Pi', { base: 2, exponent: 50, format: QuantityFormats.BinarySI }],
  ['Ei', { base: 2, exponent: 60, format: QuantityFormats.BinarySI }],
]);

const CH_0 = 48;
const CH_9 = 57;
const CH_DOT = 46;
const CH_PLUS = 43;
const CH_MINUS = 45;

function isDigit(c: number): boolean {
  return c >= CH_0 && c <= CH_9;
}

/** Characters Kubernetes' scanner lets into a suffix before an optional signed exponent. */
function isSuffixLetter(c: number): boolean {
  switch (c) {
    case 101: // e
    case 69: // E
    case 105: // i
    case 110: // n
    case 117: // u
    case 109: // m
    case 107: // k
    case 75: // K
    case 77: // M
    case 71: // G
    case 84: // T
    case 80: // P
      return true;
    default:
      return false;
  }
}

/** Go's strconv.ParseInt(s, 10, 64) narrowed to what Kubernetes' interpret accepts (|e| <= MaxInt32). */
function parseExponent(s: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const digits = s.replace(/^[+-]?0*/, '');
  // Anything longer than 10 digits is past MaxInt32; stop before Number() loses precision.
  if (digits.length > 10) return undefined;
  const value = Number(s);
  return Math.abs(value) <= MAX_INT32 ? value : undefined;
}

function interpretSuffix(input: string, suffix: string): Suffix {
  const fixed = FIXED_SUFFIXES.get(suffix);
  if (fixed !== undefined) return fixed;
  const first = suffix.charCodeAt(0);
  if (suffix.length > 1 && (first === 101 || first === 69)) {
    const exponent = parseExponent(suffix.slice(1));
    if (exponent !== undefined) return { base: 10, exponent, format: QuantityFormats.DecimalExponent };
  }
  throw new QuantityError(input, ERR_SUFFIX);
}

const POW10: readonly bigint[] = Array.from({ length: 40 }, (_, i) => 10n ** BigInt(i));

function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

/** ceil(numerator / 10^shift) for a non-negative numerator, without building 10^shift when it is vast. */
function divPow10Ceil(numerator: bigint, digitCount: number, shift: number): bigint {
  if (numerator === 0n) return 0n;
  // numerator < 10^digitCount <= 10^shift: the quotient is below one, so it rounds up to one.
  if (shift >= digitCount) return 1n;
  const divisor = pow10(shift);
  const q = numerator / divisor;
  return q * divisor === numerator ? q : q + 1n;
}

/**
 * Parses a Kubernetes quantity string the way resource.ParseQuantity does: same scanner, same
 * suffixes, values below one nano-unit rounded up (away from zero) to one, binary-suffixed values
 * capped at 2^63-1, a binary value strictly between 0 and 1 reported as DecimalSI.
 *
 * Kubernetes quirks kept on purpose so manifests the API server accepts parse here too: a bare
 * sign or dot ("+", "-", ".") and a suffix without digits ("Ki", "m") read as zero, except where
 * Kubernetes' slow path rejects them ("Pi", "Ei", "e-10": unable to parse numeric part).
 * Deviation: decimal magnitudes of 10^{@link MAX_DECIMAL_DIGITS} or more are rejected.
 *
 * @throws QuantityError naming the input and Kubernetes' reason.
 */
export function parseQuantityString(str: string): ParsedQuantity {
  const end = str.length;
  if (end === 0) throw new QuantityError(str, ERR_FORMAT);
  if (str === '0') return { nanos: 0n, format: QuantityFormats.DecimalSI };

  let pos = 0;
  let negative = false;
  const c0 = str.charCodeAt(0);
  if (c0 === CH_MINUS) {
    negative = true;
    pos++;
  } else if (c0 === CH_PLUS) {
    pos++;
  }

  let sawDigit = false;
  while (pos < end && str.charCodeAt(pos) === CH_0) {
    pos++;
    sawDigit = true;
  }
  // Only a sign and zeros: Kubernetes returns zero before looking for a suffix.
  if (pos >= end) return { nanos: 0n, format: QuantityFormats.DecimalSI };

  const numStart = pos;
  while (pos < end && isDigit(str.charCodeAt(pos))) pos++;
  const num = str.slice(numStart, pos);
  let denom = '';
  if (pos < end && str.charCodeAt(pos) === CH_DOT) {
    pos++;
    const denomStart = pos;
    while (pos < end && isDigit(str.charCodeAt(pos))) pos++;
    denom = str.slice(denomStart, pos);
  }
  if (num.length > 0 || denom.length > 0) sawDigit = true;

  const suffixStart = pos;
  while (pos < end && isSuffixLetter(str.charCodeAt(pos))) pos++;
  if (pos < end) {
    const c = str.charCodeAt(pos);
    if (c === CH_PLUS || c === CH_MINUS) pos++;
  }
  while (pos < end && isDigit(str.charCodeAt(pos))) pos++;
  if (pos < end) throw new QuantityError(str, ERR_FORMAT);

  const suffix = interpretSuffix(str, str.slice(suffixStart));

  if (!sawDigit) {
    // Kubernetes takes its exact (inf.Dec) path for these, which finds no digits to parse; its int64
    // fast path, taken otherwise, reads the missing number as zero.
    const slowPath = suffix.base === 2 ? suffix.exponent >= 50 : suffix.exponent < -9;
    if (slowPath) throw new QuantityError(str, ERR_NUMERIC);
    return { nanos: 0n, format: suffix.format };
  }

  const digits = num + denom;
  // BigInt('') is 0n, which is what an all-zero number means.
  const mantissa = BigInt(digits);
  let nanos: bigint;
  let format = suffix.format;
  if (suffix.base === 10) {
    const shift = suffix.exponent - denom.length + 9;
    if (shift >= 0) {
      // digits.length bounds the mantissa's digit count; count exactly only near the limit.
      const integerDigits =
        digits.length + shift - 9 <= MAX_DECIMAL_DIGITS
          ? 0
          : (mantissa === 0n ? 0 : mantissa.toString().length) + shift - 9;
      if (integerDigits > MAX_DECIMAL_DIGITS) {
        throw new QuantityError(
          str,
          `magnitude is 10^${MAX_DECIMAL_DIGITS} or more, which nodewright does not support`,
        );
      }
      nanos = mantissa * pow10(shift);
    } else {
      nanos = divPow10Ceil(mantissa, digits.length, -shift);
    }
  } else {
    const scaled = (mantissa << BigInt(suffix.exponent)) * NANOS_PER_UNIT;
    // 2^exponent * 10^9 / 10^d: the quotient's digit count is bounded by the numerator's.
    nanos = denom.length === 0 ? scaled : divPow10Ceil(scaled, scaled.toString().length, denom.length);
    if (nanos > MAX_BINARY_NANOS) nanos = MAX_BINARY_NANOS;
    if (nanos > 0n && nanos < NANOS_PER_UNIT) format = QuantityFormats.DecimalSI;
  }
  return { nanos: negative ? -nanos : nanos, format };
}
