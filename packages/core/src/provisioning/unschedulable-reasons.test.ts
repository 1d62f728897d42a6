import { describe, expect, it } from 'vitest';
import { unschedulableReasons } from './unschedulable-reasons.js';

describe('unschedulableReasons', () => {
  it('counts pods per reason, most first, ties by reason, cut at the limit', () => {
    const reasons = [
      'exceeds the NodePool limit',
      'no instance type fits',
      'exceeds the NodePool limit',
      'a volume zone',
      'exceeds the NodePool limit',
      'no instance type fits',
      'b taint',
    ].map((reason) => ({ reason }));
    expect(unschedulableReasons(reasons, 3)).toEqual([
      { reason: 'exceeds the NodePool limit', pods: 3 },
      { reason: 'no instance type fits', pods: 2 },
      { reason: 'a volume zone', pods: 1 },
    ]);
    expect(unschedulableReasons([])).toEqual([]);
  });
});
