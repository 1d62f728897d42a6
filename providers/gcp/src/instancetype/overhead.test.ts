import { Quantity, ResourceNames } from '@nodewright/core/scheduling';
import { describe, expect, it } from 'vitest';
import { gkeOverhead, gkeReservedMemoryMiB, gkeReservedMilliCpu } from './overhead.js';

describe("GKE's reserved resources", () => {
  it.each([
    [1, 60],
    [2, 70],
    [4, 80],
    [8, 90],
    [32, 150],
    [96, 310],
  ])('%i vCPUs reserve %im', (vcpus, milli) => {
    expect(gkeReservedMilliCpu(vcpus, false)).toBe(milli);
  });

  it('shared-core types reserve 1060m whatever their vCPU count', () => {
    expect(gkeReservedMilliCpu(2, true)).toBe(1060);
  });

  it.each([
    [512, 255],
    [1024, 256],
    [4096, 1024],
    [8192, 1844],
    [16384, 2663],
    [32768, 3646],
    [262144, 12166],
  ])('%i MiB of memory reserve %i MiB', (memory, reserved) => {
    expect(gkeReservedMemoryMiB(memory)).toBe(reserved);
  });

  it('evicts at 100Mi of memory and 10 % of the boot disk; the NodeClass overrides each', () => {
    const capacity = new Map([
      [ResourceNames.Memory, Quantity.parse('30474Mi')],
      [ResourceNames.EphemeralStorage, Quantity.parse('100Gi')],
    ]);
    const machine = { vcpus: 8, memoryMiB: 32768, sharedCpu: false };
    const plain = gkeOverhead(machine, capacity);
    expect(plain.evictionThreshold.get(ResourceNames.Memory)?.toString()).toBe('100Mi');
    expect(plain.evictionThreshold.get(ResourceNames.EphemeralStorage)?.cmp(Quantity.parse('10Gi'))).toBe(0);
    expect(plain.kubeReserved.get(ResourceNames.CPU)?.toString()).toBe('90m');
    const tuned = gkeOverhead(machine, capacity, {
      kubeReserved: { cpu: '200m' },
      systemReserved: { memory: '1Gi' },
      evictionHard: { 'memory.available': '5%' },
    });
    expect(tuned.kubeReserved.get(ResourceNames.CPU)?.toString()).toBe('200m');
    expect(tuned.systemReserved.get(ResourceNames.Memory)?.toString()).toBe('1Gi');
    expect(tuned.evictionThreshold.get(ResourceNames.Memory)?.cmp(Quantity.parse('1523.7Mi'))).toBe(1);
  });
});
