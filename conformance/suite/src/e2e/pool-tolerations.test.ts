import { describe, expect, it } from 'vitest';
import { poolTolerations, templateTaints } from './pool-tolerations.js';

describe('poolTolerations', () => {
  it('tolerates each template taint by key and effect, whatever its value', () => {
    const pool = {
      spec: {
        template: {
          spec: {
            taints: [
              { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' },
              { key: 'example.com/batch', effect: 'NoExecute' },
            ],
            startupTaints: [{ key: 'example.com/driver', effect: 'NoSchedule' }],
          },
        },
      },
    };
    expect(poolTolerations(templateTaints(pool))).toEqual([
      { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
      { key: 'example.com/batch', operator: 'Exists', effect: 'NoExecute' },
    ]);
  });

  it('tolerates nothing for a pool without taints, so karpenter.sh/disrupted is not tolerated either', () => {
    expect(poolTolerations(templateTaints({ spec: { template: { spec: {} } } }))).toEqual([]);
    expect(poolTolerations(templateTaints({}))).toEqual([]);
  });
});
