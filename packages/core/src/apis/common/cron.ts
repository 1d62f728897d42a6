import { z } from 'zod';

/**
 * Cron syntax as budgets accept it: one of the macros, or five fields (minute, hour, day of
 * month, month, day of week) of `*`, `?`, numbers or names, ranges `a-b`, steps `/n` and
 * lists `a,b`. Time zones are not supported; schedules are read in UTC. The pattern checks
 * each field's range, so `61 * * * *` is rejected here rather than silently never matching.
 */
export const CronMacros = ['annually', 'yearly', 'monthly', 'weekly', 'daily', 'midnight', 'hourly'] as const;

function field(atom: string): string {
  const element = `(\\*|\\?|(${atom})(-(${atom}))?)(/[1-9][0-9]*)?`;
  return `${element}(,${element})*`;
}

const Minute = field('[0-5]?[0-9]');
const Hour = field('[01]?[0-9]|2[0-3]');
const DayOfMonth = field('0?[1-9]|[12][0-9]|3[01]');
/** Names match in any case; spelled out per letter because engines disagree on `(?i:...)`. */
function names(words: readonly string[]): string {
  return words.map((w) => [...w].map((c) => `[${c.toUpperCase()}${c}]`).join('')).join('|');
}

const Month = field(
  `0?[1-9]|1[0-2]|${names(['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'])}`,
);
const DayOfWeek = field(`[0-6]|${names(['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'])}`);

/** The whole schedule pattern, valid both as an ECMAScript and an RE2 (Kubernetes) regex. */
export const CronSchedulePattern = `^(@(${CronMacros.join('|')})|${[Minute, Hour, DayOfMonth, Month, DayOfWeek].join('[ \\t]+')})$`;

const cronRe = new RegExp(CronSchedulePattern);

/** True if `schedule` is a cron expression a budget accepts. */
export function isCronSchedule(schedule: string): boolean {
  return cronRe.test(schedule);
}

/** A budget `schedule`. */
export function cronSchedule() {
  return z
    .string()
    .regex(
      cronRe,
      'must be a cron schedule of five fields (minute hour day-of-month month day-of-week, e.g. "0 9 * * mon-fri") or one of @annually, @yearly, @monthly, @weekly, @daily, @midnight, @hourly',
    );
}
