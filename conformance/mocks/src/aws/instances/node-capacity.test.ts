import { describe, expect, it } from 'vitest';
import { SEED_INSTANCE_TYPES } from '../seed/instance-types.js';
import { kubeReservedCpuMillis, nodeAllocatable, nodeCapacity } from './node-capacity.js';

const m5large = SEED_INSTANCE_TYPES.find((t) => t.name === 'm5.large')!;
const g4dn = SEED_INSTANCE_TYPES.find((t) => t.name === 'g4dn.xlarge')!;

describe('node capacity', () => {
  it('reports cpu, memory below nominal, ENI-limited pods, root volume and GPUs', () => {
    expect(nodeCapacity(m5large, 20)).toEqual({
      cpu: '2',
      memory: `${Math.floor(8192 * 0.97) * 1024}Ki`,
      pods: '29',
      'ephemeral-storage': `${20 * 1024 * 1024}Ki`,
    });
    expect(nodeCapacity(g4dn, 20)['nvidia.com/gpu']).toBe('1');
  });

  it("gives every type of gpu.yaml's families its GPUs as nvidia.com/gpu, in capacity and allocatable", () => {
    const gpuTypes = SEED_INSTANCE_TYPES.filter((t) => /^(g5|g6|p4d|p5)\./.test(t.name));
    expect(gpuTypes.map((t) => t.name.split('.')[0]).sort()).toEqual(
      expect.arrayContaining(['g5', 'g6', 'p4d', 'p5']),
    );
    for (const t of gpuTypes) {
      const capacity = nodeCapacity(t, 500);
      expect(capacity['nvidia.com/gpu'], t.name).toBe(String(t.gpu?.count));
      expect(nodeAllocatable(t, capacity)['nvidia.com/gpu'], t.name).toBe(String(t.gpu?.count));
    }
  });

  it('reserves EKS kube-reserved and eviction thresholds', () => {
    expect(kubeReservedCpuMillis(2)).toBe(70);
    expect(kubeReservedCpuMillis(4)).toBe(80);
    expect(kubeReservedCpuMillis(8)).toBe(90);
    const cap = nodeCapacity(m5large, 20);
    const alloc = nodeAllocatable(m5large, cap);
    expect(alloc.cpu).toBe('1930m');
    expect(alloc.memory).toBe(`${Math.floor(8192 * 0.97) * 1024 - (11 * 29 + 255 + 100) * 1024}Ki`);
    expect(alloc.pods).toBe('29');
  });
});
