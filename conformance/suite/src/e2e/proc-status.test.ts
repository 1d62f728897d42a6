import { describe, expect, it } from 'vitest';
import { parseProcStatCpuSeconds, parseProcStatus, percentile } from './proc-status.js';

const status = ['Name:\tnode', 'VmPeak:\t 1200000 kB', 'VmHWM:\t  150000 kB', 'VmRSS:\t  120000 kB', ''].join(
  '\n',
);

describe('parseProcStatus', () => {
  it('reads current and peak resident memory in bytes', () => {
    expect(parseProcStatus(status)).toEqual({ rssBytes: 120000 * 1024, peakRssBytes: 150000 * 1024 });
  });

  it('names the missing field', () => {
    expect(() => parseProcStatus('Name:\tnode\nVmRSS:\t1 kB\n')).toThrow(/VmHWM/);
  });
});

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const samples = Array.from({ length: 20 }, (_, i) => 20 - i);
    expect(percentile(samples, 95)).toBe(19);
    expect(percentile(samples, 100)).toBe(20);
    expect(percentile(samples, 0)).toBe(1);
    expect(percentile([], 50)).toBeUndefined();
  });
});

describe('parseProcStatCpuSeconds', () => {
  it('adds utime and stime (fields 14 and 15), in seconds', () => {
    const stat = '4242 (node) S 1 4242 4242 0 -1 4194560 9000 0 12 0 1234 567 0 0 20 0 11 0 100 1000 5000';
    expect(parseProcStatCpuSeconds(stat)).toBeCloseTo(18.01, 10);
  });

  it('counts fields after the last parenthesis, as a name may hold spaces and parentheses', () => {
    const stat = '7 (a (b) c) R 1 7 7 0 -1 0 0 0 0 0 250 50 0 0 20 0 1 0 9 9 9';
    expect(parseProcStatCpuSeconds(stat)).toBe(3);
  });

  it('says so when the fields are missing', () => {
    expect(() => parseProcStatCpuSeconds('7 (node) R 1 2')).toThrow(/utime and stime/);
  });
});
