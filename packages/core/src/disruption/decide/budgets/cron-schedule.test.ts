import { describe, expect, it } from 'vitest';
import { cronMatches, latestCronHit, parseCronSchedule } from './cron-schedule.js';

function schedule(text: string) {
  const parsed = parseCronSchedule(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.schedule;
}

const at = (iso: string) => Date.parse(iso);

describe('parseCronSchedule', () => {
  it.each([
    ['0 9 * * mon-fri', '2024-05-01T09:00:00Z', true], // Wednesday
    ['0 9 * * mon-fri', '2024-05-04T09:00:00Z', false], // Saturday
    ['0 9 * * MON-FRI', '2024-05-03T09:00:00Z', true],
    ['*/15 * * * *', '2024-05-01T10:45:00Z', true],
    ['*/15 * * * *', '2024-05-01T10:46:00Z', false],
    ['5/20 * * * *', '2024-05-01T10:45:00Z', true],
    ['5/20 * * * *', '2024-05-01T10:05:00Z', true],
    ['5/20 * * * *', '2024-05-01T10:00:00Z', false],
    ['0 0 1 jan,jul *', '2024-07-01T00:00:00Z', true],
    ['0 0 1 jan,jul *', '2024-06-01T00:00:00Z', false],
    ['@hourly', '2024-05-01T07:00:00Z', true],
    ['@hourly', '2024-05-01T07:01:00Z', false],
    ['@daily', '2024-05-01T00:00:00Z', true],
    ['@midnight', '2024-05-02T00:00:00Z', true],
    ['@weekly', '2024-05-05T00:00:00Z', true], // Sunday
    ['@weekly', '2024-05-06T00:00:00Z', false],
    ['@monthly', '2024-06-01T00:00:00Z', true],
    ['@yearly', '2025-01-01T00:00:00Z', true],
    ['@annually', '2025-02-01T00:00:00Z', false],
    ['0\t12\t*\t*\t?', '2024-05-01T12:00:00Z', true],
  ])('%s at %s: %s', (text, iso, expected) => {
    expect(cronMatches(schedule(text), at(iso))).toBe(expected);
  });

  it('matches either day field when both are restricted, both when one is a wildcard', () => {
    // 2024-05-01 is a Wednesday (3), 2024-05-15 also; 2024-05-13 is a Monday.
    const either = schedule('0 0 1 * mon');
    expect(cronMatches(either, at('2024-05-01T00:00:00Z'))).toBe(true);
    expect(cronMatches(either, at('2024-05-13T00:00:00Z'))).toBe(true);
    expect(cronMatches(either, at('2024-05-15T00:00:00Z'))).toBe(false);
    const mondaysOnly = schedule('0 0 * * mon');
    expect(cronMatches(mondaysOnly, at('2024-05-01T00:00:00Z'))).toBe(false);
    // A step over the day of month is a restriction, not a wildcard.
    const stepped = schedule('0 0 */2 * mon');
    expect(cronMatches(stepped, at('2024-05-13T00:00:00Z'))).toBe(true);
    expect(cronMatches(stepped, at('2024-05-03T00:00:00Z'))).toBe(true);
  });

  it.each([
    ['* * * *', 'must have 5 fields'],
    ['60 * * * *', 'minute: 60 is outside 0-59'],
    ['0 24 * * *', 'hour: 24 is outside 0-23'],
    ['0 0 0 * *', 'day of month: 0 is outside 1-31'],
    ['0 0 * 13 *', 'month: 13 is outside 1-12'],
    ['0 0 * * 7', 'day of week: 7 is outside 0-6'],
    ['0 0 * * funday', 'is not a number'],
    ['*/0 * * * *', 'must be a positive number'],
    ['5-1 * * * *', 'starts after it ends'],
    ['', 'must have 5 fields'],
  ])('rejects %j (%s)', (text, message) => {
    const parsed = parseCronSchedule(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toContain(message);
  });
});

describe('latestCronHit', () => {
  const weekdayNine = schedule('0 9 * * mon-fri');

  it('finds the latest hit in (after, upTo], whole minutes', () => {
    const now = at('2024-05-01T12:34:56Z');
    expect(latestCronHit(weekdayNine, now - 8 * 3_600_000, now)).toBe(at('2024-05-01T09:00:00Z'));
    expect(latestCronHit(weekdayNine, now - 3 * 3_600_000, now)).toBeUndefined();
    // Hits exactly at `upTo` count; hits exactly at `after` do not.
    expect(latestCronHit(weekdayNine, at('2024-05-01T08:00:00Z'), at('2024-05-01T09:00:00Z'))).toBe(
      at('2024-05-01T09:00:00Z'),
    );
    expect(
      latestCronHit(weekdayNine, at('2024-05-01T09:00:00Z'), at('2024-05-01T10:00:00Z')),
    ).toBeUndefined();
  });

  it('skips non-matching months and days over long windows', () => {
    const leapDay = schedule('30 6 29 2 *');
    const now = at('2031-01-01T00:00:00Z');
    expect(latestCronHit(leapDay, at('2020-01-01T00:00:00Z'), now)).toBe(at('2028-02-29T06:30:00Z'));
    // From Saturday morning, the latest weekday hit is Friday 09:00.
    expect(latestCronHit(weekdayNine, at('2024-04-20T00:00:00Z'), at('2024-05-04T08:00:00Z'))).toBe(
      at('2024-05-03T09:00:00Z'),
    );
  });

  it('agrees with a minute-by-minute scan', () => {
    const s = schedule('*/7 3-5,22 * * sun,wed');
    const after = at('2024-04-27T00:00:00Z');
    const upTo = at('2024-05-02T00:00:00Z');
    let expected: number | undefined;
    for (let t = upTo; t > after; t -= 60_000) {
      if (cronMatches(s, t)) {
        expected = t;
        break;
      }
    }
    expect(expected).toBeDefined();
    expect(latestCronHit(s, after, upTo)).toBe(expected);
  });
});
