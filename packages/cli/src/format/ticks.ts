/** Axis ticks: 0, step, 2 x step, ... up to `max`, the axis end (a multiple of the step). */
export interface AxisTicks {
  readonly step: number;
  readonly max: number;
  readonly values: readonly number[];
}

/** Steps of 1, 2 and 5 times a power of ten: how people read a scale. */
export const DecimalSteps = [1, 2, 5] as const;

/** Steps along an axis of hours that a clock divides well (15 min, 30 min, 1, 2, 3, 4, 6, 12, 24 h). */
const HourSteps = [0.25, 0.5, 1, 2, 3, 4, 6, 12, 24, 48, 72, 168];

const fix = (x: number) => Number(x.toPrecision(12));

/**
 * The smallest step of 1, 2 or 5 x 10^n (at least `minStep`) that covers `0..max` in at most
 * `maxTicks` intervals, the axis end rounded up to it (pure). `max <= 0` gives 0..1 in one
 * step (or `minStep`), so an empty chart still has a scale.
 */
export function niceTicks(
  max: number,
  options: { readonly maxTicks?: number; readonly minStep?: number } = {},
): AxisTicks {
  const maxTicks = options.maxTicks ?? 5;
  const minStep = options.minStep ?? 0;
  const top = Math.max(max, 0);
  if (top === 0) {
    const step = minStep > 0 ? minStep : 1;
    return ticksOf(step, step);
  }
  let exponent = Math.floor(Math.log10(top / maxTicks));
  for (;;) {
    for (const base of DecimalSteps) {
      const step = fix(base * 10 ** exponent);
      if (step < minStep) continue;
      const end = fix(Math.ceil(fix(top / step)) * step);
      if (end / step <= maxTicks + 1e-9) return ticksOf(step, end);
    }
    exponent++;
  }
}

/**
 * Ticks along an axis of hours (pure): the smallest of 15 min, 30 min, 1, 2, 3, 4, 6, 12, 24 h
 * (then whole weeks) giving at most `maxTicks` intervals over `0..hours`; the end is rounded up
 * to the step.
 */
export function hourTicks(hours: number, maxTicks = 6): AxisTicks {
  const top = Math.max(hours, 0);
  if (top === 0) return ticksOf(1, 1);
  const step =
    HourSteps.find((s) => Math.ceil(fix(top / s)) <= maxTicks) ?? Math.ceil(top / maxTicks / 168) * 168;
  return ticksOf(step, fix(Math.ceil(fix(top / step)) * step));
}

function ticksOf(step: number, max: number): AxisTicks {
  const n = Math.round(max / step);
  return { step, max, values: Array.from({ length: n + 1 }, (_, i) => fix(i * step)) };
}
