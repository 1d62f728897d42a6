/**
 * Money as nodewright prints it to people: US dollars, since the built-in catalogs hold the
 * providers' public USD prices. JSON keeps plain numbers; only text, HTML and chart axes use
 * these.
 */

/** Decimals of an hourly price: enough to tell spot offerings apart ($0.0058/h). */
const RateDecimals = 4;
/** Decimals of a total: cents. */
const CostDecimals = 2;

function dollars(x: number, decimals: number, round: 'nearest' | 'down'): string {
  const scale = 10 ** decimals;
  const magnitude = Math.abs(x);
  // Floors keep a lower bound a bound; a tiny epsilon absorbs 0.3041 * 10^4 = 3040.9999...
  const scaled = round === 'down' ? Math.floor(magnitude * scale + 1e-9) : Math.round(magnitude * scale);
  const digits = (scaled / scale).toFixed(decimals);
  const sign = x < 0 && scaled > 0 ? '-' : '';
  return `${sign}$${digits}`;
}

/**
 * An hourly price: `$0.3041/h` (four decimals, so `$0.3840/h` lines up with `$0.0058/h`).
 * `round: 'down'` for a lower bound, which must not be printed above itself.
 */
export function formatPerHour(
  perHour: number,
  options: { readonly round?: 'nearest' | 'down' } = {},
): string {
  return `${dollars(perHour, RateDecimals, options.round ?? 'nearest')}/h`;
}

/** A total cost: `$13.78`. */
export function formatCost(total: number): string {
  return dollars(total, CostDecimals, 'nearest');
}

/**
 * A dollar amount for an axis whose ticks are `step` apart: whole dollars for whole steps
 * (`$20`), otherwise cents or the finer decimals the step needs (`$0.20`, `$0.025`).
 */
export function formatDollarsForStep(value: number, step: number): string {
  const decimals = decimalsForStep(step);
  return dollars(value, decimals === 0 ? 0 : Math.max(CostDecimals, decimals), 'nearest');
}

/** The decimals that show every multiple of `step` exactly (0 for whole steps, 2 for 0.25). */
export function decimalsForStep(step: number): number {
  for (let d = 0; d < 10; d++) {
    const scaled = step * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6 * Math.max(1, scaled)) return d;
  }
  return 10;
}
