import { describe, expect, it } from 'vitest';
import { parseProcStatus, percentile } from './proc-status.js';

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
