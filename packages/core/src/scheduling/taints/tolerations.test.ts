import { describe, expect, it } from 'vitest';
import {
  describeTaint,
  toleratesAnyPreferNoSchedule,
  toleratesTaint,
  untoleratedTaint,
} from './tolerations.js';

const taint = { key: 'gpu', value: 'true', effect: 'NoSchedule' };

describe('tolerations', () => {
  it('matches Kubernetes ToleratesTaint', () => {
    expect(
      toleratesTaint({ key: 'gpu', operator: 'Equal', value: 'true', effect: 'NoSchedule' }, taint),
    ).toBe(true);
    expect(toleratesTaint({ key: 'gpu', value: 'true' }, taint)).toBe(true);
    expect(toleratesTaint({ key: 'gpu', value: 'false' }, taint)).toBe(false);
    expect(toleratesTaint({ key: 'gpu', operator: 'Exists', effect: 'NoExecute' }, taint)).toBe(false);
    expect(toleratesTaint({ operator: 'Exists' }, taint)).toBe(true);
    expect(toleratesTaint({ key: 'other', operator: 'Exists' }, taint)).toBe(false);
  });

  it('finds the first untolerated taint, PreferNoSchedule included', () => {
    const soft = { key: 'soft', effect: 'PreferNoSchedule' };
    expect(untoleratedTaint([taint, soft], [{ key: 'gpu', operator: 'Exists' }])).toBe(soft);
    expect(untoleratedTaint([soft], [{ operator: 'Exists', effect: 'PreferNoSchedule' }])).toBeUndefined();
    expect(describeTaint(taint)).toBe('gpu=true:NoSchedule');
    expect(describeTaint(soft)).toBe('soft:PreferNoSchedule');
  });

  it('knows when PreferNoSchedule is already tolerated', () => {
    expect(toleratesAnyPreferNoSchedule([{ operator: 'Exists' }])).toBe(true);
    expect(toleratesAnyPreferNoSchedule([{ operator: 'Exists', effect: 'PreferNoSchedule' }])).toBe(true);
    expect(toleratesAnyPreferNoSchedule([{ key: 'x', operator: 'Exists' }])).toBe(false);
  });
});
