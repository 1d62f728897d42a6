import { describe, expect, it } from 'vitest';
import { kubeReservedCpuMillis, kubeReservedMemoryMiB, memoryCapacityMiB } from './overhead.js';

describe('AKS overhead', () => {
  it('kube-reserved CPU: 6 % of the first core, 4 % of the second, 2 % of cores 3-4, 1 % above', () => {
    expect([1, 2, 4, 8, 16, 32, 64].map(kubeReservedCpuMillis)).toEqual([60, 100, 140, 180, 260, 420, 740]);
  });
  it('kube-reserved memory: 25 % of 4 GiB, 20 % to 8, 10 % to 16, 6 % to 128, 2 % above', () => {
    expect(kubeReservedMemoryMiB(4)).toBe(1024);
    expect(kubeReservedMemoryMiB(8)).toBe(1024 + 819);
    expect(kubeReservedMemoryMiB(16)).toBe(Math.round((1 + 0.8 + 0.8) * 1024));
    expect(kubeReservedMemoryMiB(128)).toBe(Math.round((2.6 + 112 * 0.06) * 1024));
    expect(kubeReservedMemoryMiB(256)).toBe(Math.round((2.6 + 6.72 + 128 * 0.02) * 1024));
  });
  it('memory capacity loses 7.5 % to the VM, rounded up to a MiB', () => {
    expect(memoryCapacityMiB(8)).toBe(8192 - 615);
    expect(memoryCapacityMiB(3.5)).toBe(3584 - 269);
  });
});
