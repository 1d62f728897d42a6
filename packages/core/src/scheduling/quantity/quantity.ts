import { formatQuantity, type QuantityFormat, QuantityFormats } from './format.js';
import { parseQuantityString, QuantityError } from './parse.js';

const NANOS_PER_UNIT = 1_000_000_000n;
const NANOS_PER_MILLI = 1_000_000n;

/** A JSON value a Kubernetes int-or-string quantity field may hold, or a quantity already parsed. */
export type QuantityInput = string | number | Quantity;

/** The outcome of {@link Quantity.safeParse}. */
export type QuantityParseResult =
  | { readonly success: true; readonly quantity: Quantity }
  | { readonly success: false; readonly error: string };

/** ceil(n / d) away from zero, for d > 0. */
function divAwayFromZero(n: bigint, d: bigint): bigint {
  const q = n / d;
  if (q * d === n) return q;
  return n < 0n ? q - 1n : q + 1n;
}

function toBigInt(value: bigint | number, what: string): bigint {
  if (typeof value === 'bigint') return value;
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be a safe integer, got ${value}`);
  return BigInt(value);
}

/**
 * An exact Kubernetes resource quantity (resource.Quantity): a whole number of nano-units plus the
 * format family used to print it. Immutable; arithmetic returns new quantities and never rounds
 * (Kubernetes rounds only when parsing, up to one nano-unit).
 *
 * Format follows Kubernetes: a sum or difference keeps the left operand's format unless the left
 * operand is zero, in which case it takes the right operand's.
 */
export class Quantity {
  /** The value in nano-units (10^-9). */
  readonly nanos: bigint;
  readonly format: QuantityFormat;
  #text: string | undefined;

  private constructor(nanos: bigint, format: QuantityFormat) {
    this.nanos = nanos;
    this.format = format;
  }

  /**
   * Parses a quantity as the Kubernetes API server does. Numbers (JSON ints and floats) are read
   * through their shortest decimal string, so 0.5 is "0.5" (500m); a JSON `1e3` therefore arrives
   * as DecimalSI 1k rather than DecimalExponent, because JSON.parse keeps no spelling.
   *
   * @throws QuantityError for anything Kubernetes would reject.
   */
  static parse(input: QuantityInput): Quantity {
    if (input instanceof Quantity) return input;
    if (typeof input === 'number') {
      if (!Number.isFinite(input)) throw new QuantityError(String(input), 'not a finite number');
      input = String(input);
    }
    if (typeof input !== 'string') throw new QuantityError(String(input), 'expected a string or a number');
    const parsed = parseQuantityString(input);
    return new Quantity(parsed.nanos, parsed.format);
  }

  /** {@link Quantity.parse} without throwing: the error message instead. */
  static safeParse(input: QuantityInput): QuantityParseResult {
    try {
      return { success: true, quantity: Quantity.parse(input) };
    } catch (err) {
      if (err instanceof QuantityError) return { success: false, error: err.message };
      throw err;
    }
  }

  /** Zero in the given format (Kubernetes' zero value prints as "0" whatever its format). */
  static zero(format: QuantityFormat = QuantityFormats.DecimalSI): Quantity {
    return new Quantity(0n, format);
  }

  static fromNanos(nanos: bigint, format: QuantityFormat = QuantityFormats.DecimalSI): Quantity {
    return new Quantity(nanos, format);
  }

  /** value / 1000 (Kubernetes' NewMilliQuantity). A number must be a safe integer. */
  static fromMilli(milli: bigint | number, format: QuantityFormat = QuantityFormats.DecimalSI): Quantity {
    return new Quantity(toBigInt(milli, 'milli') * NANOS_PER_MILLI, format);
  }

  /** A whole number of units (Kubernetes' NewQuantity). A number must be a safe integer. */
  static fromUnits(units: bigint | number, format: QuantityFormat = QuantityFormats.DecimalSI): Quantity {
    return new Quantity(toBigInt(units, 'units') * NANOS_PER_UNIT, format);
  }

  /**
   * The quantity whose decimal spelling is the number's shortest round-trip string (0.1 -> 100m),
   * rounded up to one nano-unit as parsing does. The format is the parsed one unless given.
   */
  static fromNumber(value: number, format?: QuantityFormat): Quantity {
    const q = Quantity.parse(value);
    return format === undefined || format === q.format ? q : new Quantity(q.nanos, format);
  }

  /** The same value printed in another format family. */
  withFormat(format: QuantityFormat): Quantity {
    return format === this.format ? this : new Quantity(this.nanos, format);
  }

  add(other: Quantity): Quantity {
    const format = this.nanos === 0n ? other.format : this.format;
    if (other.nanos === 0n && format === this.format) return this;
    return new Quantity(this.nanos + other.nanos, format);
  }

  sub(other: Quantity): Quantity {
    const format = this.nanos === 0n ? other.format : this.format;
    if (other.nanos === 0n && format === this.format) return this;
    return new Quantity(this.nanos - other.nanos, format);
  }

  neg(): Quantity {
    return this.nanos === 0n ? this : new Quantity(-this.nanos, this.format);
  }

  /** Multiplies by an integer (a number must be a safe integer). */
  mul(factor: bigint | number): Quantity {
    const f = toBigInt(factor, 'factor');
    return f === 1n ? this : new Quantity(this.nanos * f, this.format);
  }

  /** -1, 0 or 1 as this is less than, equal to or greater than other; formats are ignored. */
  cmp(other: Quantity): -1 | 0 | 1 {
    const a = this.nanos;
    const b = other.nanos;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** Value equality, as Kubernetes' Quantity.Equal: 1000m equals 1 whatever the formats. */
  equals(other: Quantity): boolean {
    return this.nanos === other.nanos;
  }

  isZero(): boolean {
    return this.nanos === 0n;
  }

  sign(): -1 | 0 | 1 {
    return this.nanos < 0n ? -1 : this.nanos > 0n ? 1 : 0;
  }

  /** The smaller of the two; this one when equal. */
  min(other: Quantity): Quantity {
    return other.nanos < this.nanos ? other : this;
  }

  /** The larger of the two; this one when equal. */
  max(other: Quantity): Quantity {
    return other.nanos > this.nanos ? other : this;
  }

  /** Thousandths, rounded away from zero (Kubernetes' MilliValue). */
  toMilli(): bigint {
    return divAwayFromZero(this.nanos, NANOS_PER_MILLI);
  }

  /** {@link toMilli} as a number; exact while the result is a safe integer. */
  toMilliNumber(): number {
    return Number(this.toMilli());
  }

  /** Whole units, rounded away from zero (Kubernetes' Value). */
  toUnits(): bigint {
    return divAwayFromZero(this.nanos, NANOS_PER_UNIT);
  }

  /** The value as a double, approximately: for scoring and ratios, never for decisions. */
  toNumber(): number {
    const units = this.nanos / NANOS_PER_UNIT;
    return Number(units) + Number(this.nanos - units * NANOS_PER_UNIT) / 1e9;
  }

  /** Kubernetes' canonical form, e.g. 1.5Gi -> "1536Mi", 1000m -> "1", 0.5 -> "500m". */
  toString(): string {
    if (this.#text === undefined) this.#text = formatQuantity(this.nanos, this.format);
    return this.#text;
  }

  toJSON(): string {
    return this.toString();
  }
}
