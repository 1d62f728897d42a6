import { describe, expect, it } from 'vitest';
import { snakeCase } from './snake-case.js';

describe('snakeCase', () => {
  it('splits condition types at their words, acronyms kept whole', () => {
    expect(snakeCase('Ready')).toBe('ready');
    expect(snakeCase('NetworkUnavailable')).toBe('network_unavailable');
    expect(snakeCase('KernelDeadlock')).toBe('kernel_deadlock');
    expect(snakeCase('GPUHealthy')).toBe('gpu_healthy');
  });
});
