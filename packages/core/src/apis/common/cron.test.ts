import { CronExpressionParser } from 'cron-parser';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CronMacros, isCronSchedule } from './cron.js';

function parsesWithCronParser(expression: string): boolean {
  try {
    CronExpressionParser.parse(expression, { tz: 'UTC', strict: false });
    return true;
  } catch {
    return false;
  }
}

describe('cron schedules', () => {
  test.each(CronMacros.map((m) => `@${m}`))('macro %s is accepted', (macro) =>
    expect(isCronSchedule(macro)).toBe(true),
  );

  test.each([
    '0 9 * * mon-fri',
    '*/15 * * * *',
    '0 0 1 jan,jul *',
    '30 2 * * 0',
    '0 22 * * SAT',
    '5,35 */2 1-15 * ?',
    '0 0 29 2 *',
  ])('%s is accepted', (schedule) => {
    expect(isCronSchedule(schedule)).toBe(true);
    expect(parsesWithCronParser(schedule)).toBe(true);
  });

  test.each([
    '',
    '@every 1h',
    '@reboot',
    '* * * *',
    '* * * * * *',
    '60 * * * *',
    '0 24 * * *',
    '0 0 0 * *',
    '0 0 32 * *',
    '0 0 * 13 *',
    '0 0 * * 7',
    '0 0 * * funday',
    '*/0 * * * *',
    'TZ=UTC 0 0 * * *',
  ])('%s is rejected', (schedule) => expect(isCronSchedule(schedule)).toBe(false));

  const field = (min: number, max: number, names: readonly string[] = []) =>
    fc.oneof(
      fc.constant('*'),
      fc.integer({ min, max }).map(String),
      fc
        .tuple(fc.integer({ min, max }), fc.integer({ min, max }))
        .map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
      fc.tuple(fc.constant('*'), fc.integer({ min: 1, max: max - min + 1 })).map(([s, n]) => `${s}/${n}`),
      ...(names.length > 0 ? [fc.constantFrom(...names)] : []),
    );
  // cron-parser refuses lists that name a value twice (Go's cron does not mind), so lists are
  // of distinct numbers and every other element stands alone.
  const list = (arb: fc.Arbitrary<string>, min: number, max: number) =>
    fc.oneof(
      arb,
      fc.uniqueArray(fc.integer({ min, max }), { minLength: 2, maxLength: 4 }).map((xs) => xs.join(',')),
    );

  test('every schedule the grammar generates is accepted and is real cron', () => {
    const schedule = fc
      .tuple(
        list(field(0, 59), 0, 59),
        list(field(0, 23), 0, 23),
        list(field(1, 31), 1, 31),
        list(field(1, 12, ['jan', 'FEB', 'Dec']), 1, 12),
        list(field(0, 6, ['mon', 'SUN', 'fri']), 0, 6),
      )
      .map((fields) => fields.join(' '));
    fc.assert(
      fc.property(schedule, (s) => {
        expect(isCronSchedule(s)).toBe(true);
        expect(parsesWithCronParser(s)).toBe(true);
      }),
    );
  });

  test('a number out of its field range is rejected in any field', () => {
    const limits = [60, 24, 32, 13, 7];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 40 }), (position, extra) => {
        const fields = ['0', '0', '1', '1', '0'];
        fields[position] = String(limits[position]! + extra);
        expect(isCronSchedule(fields.join(' '))).toBe(false);
      }),
    );
  });
});
