import { describe, expect, it } from 'vitest';
import { formatTime } from './object.js';
import { TimeFormatter } from './time-formatter.js';

describe('TimeFormatter', () => {
  it('formats as formatTime does, within a second and across seconds, forwards and back', () => {
    const time = new TimeFormatter();
    const start = Date.parse('2026-03-01T12:00:00Z');
    for (const ms of [start, start + 999, start + 1000, start + 1500, start - 1, start + 86_400_000, start]) {
      expect(time.format(ms)).toBe(formatTime(ms));
    }
    expect(time.format(start + 1999)).toBe('2026-03-01T12:00:01Z');
  });
});
