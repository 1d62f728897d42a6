/** The three suffix families Kubernetes remembers from parsing and reuses when formatting. */
export const QuantityFormats = {
  /** Powers of ten by SI letter: 500m, 3k, 12M. */
  DecimalSI: 'DecimalSI',
  /** Powers of 1024: 512Ki, 1536Mi. */
  BinarySI: 'BinarySI',
  /** Powers of ten by exponent: 12e6, 1500e-3. */
  DecimalExponent: 'DecimalExponent',
} as const;
export type QuantityFormat = (typeof QuantityFormats)[keyof typeof QuantityFormats];

const NANOS_PER_UNIT = 1_000_000_000n;
const BINARY_THRESHOLD = 1024n * NANOS_PER_UNIT;

/** DecimalSI suffix for each base-10 exponent that is a multiple of three, from -9 to 18. */
const DECIMAL_SUFFIXES: ReadonlyMap<number, string> = new Map([
  [-9, 'n'],
  [-6, 'u'],
  [-3, 'm'],
  [0, ''],
  [3, 'k'],
  [6, 'M'],
  [9, 'G'],
  [12, 'T'],
  [15, 'P'],
  [18, 'E'],
]);

const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'] as const;

function formatDecimal(negative: boolean, magnitude: bigint, format: QuantityFormat): string {
  const text = magnitude.toString();
  let end = text.length;
  while (end > 1 && text.charCodeAt(end - 1) === 48) end--;
  let mantissa = text.slice(0, end);
  let exponent = text.length - end - 9;
  // Largest exponent that is a multiple of three without fractional digits, as Kubernetes emits.
  const excess = ((exponent % 3) + 3) % 3;
  if (excess > 0) {
    mantissa += '0'.repeat(excess);
    exponent -= excess;
  }
  const sign = negative ? '-' : '';
  if (format === QuantityFormats.DecimalSI) {
    const suffix = DECIMAL_SUFFIXES.get(exponent);
    // Past E there is no SI letter: Kubernetes falls back to exponent notation (1e21).
    if (suffix !== undefined) return sign + mantissa + suffix;
  }
  return exponent === 0 ? sign + mantissa : `${sign}${mantissa}e${exponent}`;
}

/**
 * Kubernetes' canonical string (Quantity.String) for a value in nano-units: the largest suffix of
 * the format's family that needs no fractional digits. Zero is "0". BinarySI values strictly
 * between -1024 and 1024, or with a fractional part, are written as DecimalSI; binary values with
 * more than six factors of 1024 (past Ei) fall back to exponent notation, as current Kubernetes does.
 */
export function formatQuantity(nanos: bigint, format: QuantityFormat): string {
  if (nanos === 0n) return '0';
  const negative = nanos < 0n;
  const magnitude = negative ? -nanos : nanos;
  if (format !== QuantityFormats.BinarySI) return formatDecimal(negative, magnitude, format);
  if (magnitude < BINARY_THRESHOLD || magnitude % NANOS_PER_UNIT !== 0n) {
    return formatDecimal(negative, magnitude, QuantityFormats.DecimalSI);
  }
  let units = magnitude / NANOS_PER_UNIT;
  let exponent = 0;
  while ((units & 1023n) === 0n) {
    units >>= 10n;
    exponent++;
  }
  const suffix = BINARY_SUFFIXES[exponent];
  if (suffix === undefined) return formatDecimal(negative, magnitude, QuantityFormats.DecimalExponent);
  return (negative ? '-' : '') + units.toString() + suffix;
}
