import { describe, expect, it } from 'vitest';
import { parseResourceList } from '../resources/resource-list.js';
import { PoolLimits } from './limits.js';

describe('PoolLimits', () => {
  it('admits types within what is left and subtracts the largest candidate', () => {
    const limits = PoolLimits.of(
      { cpu: '10', memory: '64Gi', nodes: '2' },
      parseResourceList({ cpu: '2', nodes: '1' }),
    )!;
    const small = limits.capacityOf(parseResourceList({ cpu: '4', memory: '16Gi' }));
    const big = limits.capacityOf(parseResourceList({ cpu: '16', memory: '64Gi' }));
    expect(limits.admits(small)).toBe(true);
    expect(limits.admits(big)).toBe(false);
    expect(limits.describe(limits.firstExceeded(big))).toBe('cpu 10 (used 2)');
    limits.subtractMax([small, limits.capacityOf(parseResourceList({ cpu: '2', memory: '32Gi' }))]);
    expect(limits.names.map((_, i) => limits.describe(i))).toEqual([
      'cpu 10 (used 6)',
      'memory 64Gi (used 32Gi)',
      'nodes 2 (used 2)',
    ]);
    expect(limits.admits(small)).toBe(false);
  });

  it('is absent without limits and ignores resources a type lacks', () => {
    expect(PoolLimits.of(undefined, undefined)).toBeUndefined();
    expect(PoolLimits.of({}, undefined)).toBeUndefined();
    const gpus = PoolLimits.of({ 'nvidia.com/gpu': '0' }, undefined)!;
    expect(gpus.admits(gpus.capacityOf(parseResourceList({ cpu: '4' })))).toBe(true);
    expect(gpus.admits(gpus.capacityOf(parseResourceList({ 'nvidia.com/gpu': '1' })))).toBe(false);
  });
});
