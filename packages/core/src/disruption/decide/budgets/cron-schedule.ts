/**
 * Budget schedules evaluated the way Karpenter's cron library reads them (five fields, UTC,
 * minute resolution). apis/common/cron.ts only checks the syntax; this answers "when".
 */

/** The minutes of an hour, hours, days of month, months and weekdays a schedule fires on. */
export interface CronSchedule {
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly daysOfMonth: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  /** 0 = Sunday. */
  readonly daysOfWeek: ReadonlySet<number>;
  /**
   * Whether day-of-month / day-of-week was a plain wildcard (`*`, `?`, `*\/1`). When neither is,
   * a day matches if EITHER field matches (classic cron); otherwise both must.
   */
  readonly dayOfMonthWildcard: boolean;
  readonly dayOfWeekWildcard: boolean;
}

export type CronParseResult =
  | { readonly ok: true; readonly schedule: CronSchedule }
  | { readonly ok: false; readonly reason: string };

const Macros: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const MonthNames = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DayNames = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface FieldSpec {
  readonly label: string;
  readonly min: number;
  readonly max: number;
  /** Names for values, starting at `min`. */
  readonly names?: readonly string[];
}

const Fields: readonly FieldSpec[] = [
  { label: 'minute', min: 0, max: 59 },
  { label: 'hour', min: 0, max: 23 },
  { label: 'day of month', min: 1, max: 31 },
  { label: 'month', min: 1, max: 12, names: MonthNames },
  { label: 'day of week', min: 0, max: 6, names: DayNames },
];

class CronError extends Error {}

function value(text: string, f: FieldSpec): number {
  const named = f.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return f.min + named;
  if (!/^[0-9]+$/.test(text)) throw new CronError(`${f.label}: ${JSON.stringify(text)} is not a number`);
  const n = Number(text);
  if (n < f.min || n > f.max) throw new CronError(`${f.label}: ${n} is outside ${f.min}-${f.max}`);
  return n;
}

/** One field: values, and whether it was a wildcard that does not restrict days. */
function parseField(text: string, f: FieldSpec): { values: Set<number>; wildcard: boolean } {
  const values = new Set<number>();
  let wildcard = false;
  for (const part of text.split(',')) {
    const [range, stepText, extra] = part.split('/');
    if (range === undefined || extra !== undefined || range === '')
      throw new CronError(`${f.label}: ${JSON.stringify(part)} is not a value, range or step`);
    let step = 1;
    if (stepText !== undefined) {
      if (!/^[0-9]+$/.test(stepText) || Number(stepText) === 0)
        throw new CronError(`${f.label}: step ${JSON.stringify(stepText)} must be a positive number`);
      step = Number(stepText);
    }
    let start: number;
    let end: number;
    if (range === '*' || range === '?') {
      start = f.min;
      end = f.max;
      if (step === 1) wildcard = true;
    } else {
      const bounds = range.split('-');
      if (bounds.length > 2) throw new CronError(`${f.label}: ${JSON.stringify(range)} is not a range`);
      start = value(bounds[0]!, f);
      // `N/step` means N through the end of the field.
      end = bounds.length === 2 ? value(bounds[1]!, f) : stepText !== undefined ? f.max : start;
      if (start > end) throw new CronError(`${f.label}: range ${range} starts after it ends`);
    }
    for (let v = start; v <= end; v += step) values.add(v);
  }
  return { values, wildcard };
}

/**
 * Parses a budget schedule: five space- or tab-separated fields or one of the @ macros.
 * Never throws; a schedule that does not parse is a misconfigured budget (allows nothing).
 */
export function parseCronSchedule(text: string): CronParseResult {
  const expanded = Macros[text.trim()] ?? text;
  const parts = expanded.trim().split(/[ \t]+/);
  if (parts.length !== 5)
    return { ok: false, reason: `schedule ${JSON.stringify(text)} must have 5 fields, has ${parts.length}` };
  try {
    const [min, hour, dom, month, dow] = parts.map((p, i) => parseField(p, Fields[i]!));
    return {
      ok: true,
      schedule: {
        minutes: min!.values,
        hours: hour!.values,
        daysOfMonth: dom!.values,
        months: month!.values,
        daysOfWeek: dow!.values,
        dayOfMonthWildcard: dom!.wildcard,
        dayOfWeekWildcard: dow!.wildcard,
      },
    };
  } catch (err) {
    if (err instanceof CronError)
      return { ok: false, reason: `schedule ${JSON.stringify(text)}: ${err.message}` };
    throw err;
  }
}

function dayMatches(s: CronSchedule, d: Date): boolean {
  const dom = s.daysOfMonth.has(d.getUTCDate());
  const dow = s.daysOfWeek.has(d.getUTCDay());
  if (s.dayOfMonthWildcard || s.dayOfWeekWildcard) return dom && dow;
  return dom || dow;
}

/** Whether the schedule fires at the minute containing `t` (ms since the epoch, UTC). */
export function cronMatches(s: CronSchedule, t: number): boolean {
  const d = new Date(t);
  return (
    s.months.has(d.getUTCMonth() + 1) &&
    dayMatches(s, d) &&
    s.hours.has(d.getUTCHours()) &&
    s.minutes.has(d.getUTCMinutes())
  );
}

const MinuteMs = 60_000;

/**
 * The latest time the schedule fires that is at or before `upTo` and strictly after `after`
 * (both ms since the epoch), or undefined if it does not fire in that interval. Hits are whole
 * UTC minutes. Skips whole months, days and hours that cannot match, so long windows stay cheap.
 */
export function latestCronHit(s: CronSchedule, after: number, upTo: number): number | undefined {
  let t = Math.floor(upTo / MinuteMs) * MinuteMs;
  while (t > after) {
    const d = new Date(t);
    const y = d.getUTCFullYear();
    const mo = d.getUTCMonth();
    const day = d.getUTCDate();
    if (!s.months.has(mo + 1)) t = Date.UTC(y, mo, 1) - MinuteMs;
    else if (!dayMatches(s, d)) t = Date.UTC(y, mo, day) - MinuteMs;
    else if (!s.hours.has(d.getUTCHours())) t = Date.UTC(y, mo, day, d.getUTCHours()) - MinuteMs;
    else if (s.minutes.has(d.getUTCMinutes())) return t;
    else t -= MinuteMs;
  }
  return undefined;
}
