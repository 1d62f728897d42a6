import { describe, expect, it } from 'vitest';
import { eventLoopDelayOf, longestFailureRun } from './operator-watch.js';

describe('operator watch', () => {
  it('reads the three event-loop delay quantiles from /metrics', () => {
    const text = [
      '# HELP nodewright_event_loop_delay_seconds How late ...',
      'nodewright_event_loop_delay_seconds{quantile="0.5"} 0.0101',
      'nodewright_event_loop_delay_seconds{quantile="0.99"} 0.0452',
      'nodewright_event_loop_delay_seconds{quantile="1"} 0.31',
    ].join('\n');
    expect(eventLoopDelayOf(text)).toEqual({ p50: 0.0101, p99: 0.0452, max: 0.31 });
    expect(eventLoopDelayOf('nodewright_event_loop_delay_seconds{quantile="0.5"} 0.01')).toBeUndefined();
  });

  it('finds the longest run of failed probes', () => {
    expect(longestFailureRun([true, false, false, true, false])).toBe(2);
    expect(longestFailureRun([true, true])).toBe(0);
    expect(longestFailureRun([])).toBe(0);
  });
});
