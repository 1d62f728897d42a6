import { z } from 'zod';

/** A Go-style duration of hours, minutes and seconds: `30s`, `10m`, `1h30m`. */
export const DurationPattern = '^([0-9]+(s|m|h))+$';
/** A duration, or `Never` to switch the behaviour off. */
export const DurationOrNeverPattern = '^(([0-9]+(s|m|h))+|Never)$';
/**
 * A budget window: hours and/or minutes only (cron has no seconds). A trailing `0s` is
 * accepted because Go prints durations that way (`1h0m0s`).
 */
export const BudgetDurationPattern = '^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$';

const unitMs: Readonly<Record<string, number>> = { h: 3_600_000, m: 60_000, s: 1_000 };

/**
 * Milliseconds in a duration such as `1h30m` or `90s`; `Infinity` for `Never`; undefined if
 * the text is not a duration of that form.
 */
export function durationMs(text: string): number | undefined {
  if (text === 'Never') return Number.POSITIVE_INFINITY;
  if (!/^([0-9]+(h|m|s))+$/.test(text)) return undefined;
  let total = 0;
  for (const [, amount, unit] of text.matchAll(/([0-9]+)(h|m|s)/g)) {
    total += Number(amount) * unitMs[unit!]!;
  }
  return total;
}

/** A duration field (`terminationGracePeriod`). */
export function duration() {
  return z.string().regex(new RegExp(DurationPattern), 'must be a duration such as 30s, 10m or 1h30m');
}

/** A duration field that also accepts `Never` (`expireAfter`, `consolidateAfter`). */
export function durationOrNever() {
  return z
    .string()
    .regex(new RegExp(DurationOrNeverPattern), 'must be a duration such as 30s, 10m or 1h30m, or Never');
}

/** A budget's `duration`: hours and minutes. */
export function budgetDuration() {
  return z
    .string()
    .regex(
      new RegExp(BudgetDurationPattern),
      'must be a duration in hours and/or minutes such as 30m, 8h or 1h30m (cron has no seconds)',
    );
}
