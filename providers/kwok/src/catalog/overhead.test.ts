import { describe, expect, it } from 'vitest';
import { kubeReservedMemoryMi, kubeReservedMilliCpu, syntheticOverhead } from './overhead.js';

describe('kubelet overhead', () => {
  it('reserves CPU in tiers: 6% of core 1, 1% of core 2, 0.5% of cores 3-4, 0.25% above', () => {
    expect(kubeReservedMilliCpu(1)).toBe(60);
    expect(kubeReservedMilliCpu(2)).toBe(70);
    expect(kubeReservedMilliCpu(4)).toBe(80);
    expect(kubeReservedMilliCpu(8)).toBe(90);
    expect(kubeReservedMilliCpu(5)).toBe(83);
    expect(kubeReservedMilliCpu(256)).toBe(710);
  });

  it('reserves 255Mi plus 11Mi per pod, and evicts below 100Mi memory and 10% disk', () => {
    expect(kubeReservedMemoryMi(110)).toBe(1465);
    expect(syntheticOverhead(2, 32, 20)).toEqual({
      kubeReserved: { cpu: '70m', memory: '607Mi' },
      systemReserved: {},
      evictionThreshold: { memory: '100Mi', 'ephemeral-storage': '2048Mi' },
    });
  });
});
