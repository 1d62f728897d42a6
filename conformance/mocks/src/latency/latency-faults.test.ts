import { describe, expect, it } from 'vitest';
import { LatencyFaults } from './latency-faults.js';

describe('LatencyFaults', () => {
  it('counts off a next delay before falling back to the standing one', () => {
    const faults = new LatencyFaults();
    faults.always('RunInstances', 50);
    faults.next('RunInstances', 600_000, 2);
    expect([1, 2, 3].map(() => faults.of('RunInstances'))).toEqual([600_000, 600_000, 50]);
  });

  it("uses the key's own delay before the one for every key, and 0 without either", () => {
    const faults = new LatencyFaults();
    expect(faults.of('getVm')).toBe(0);
    faults.always('*', 20);
    faults.always('putVm', 5);
    expect(faults.of('getVm')).toBe(20);
    expect(faults.of('putVm')).toBe(5);
  });

  it('forgets everything on clear', () => {
    const faults = new LatencyFaults();
    faults.always('*', 20);
    faults.next('insert', 100, 1);
    faults.clear();
    expect(faults.of('insert')).toBe(0);
  });
});
