import type { CatalogInstanceType } from '@nodewright/core/apis';

/** Kubelet's reservation on every mock type (what allocatable leaves out of capacity). */
export const KubeReserved = { cpu: '100m', memory: '512Mi' } as const;

function type(name: string, cpu: number, memoryGi: number, onDemand: number): CatalogInstanceType {
  return {
    name,
    labels: { 'kubernetes.io/arch': 'amd64', 'kubernetes.io/os': 'linux' },
    capacity: { cpu: String(cpu), memory: `${memoryGi}Gi`, pods: '110' },
    overhead: { kubeReserved: { ...KubeReserved }, systemReserved: {}, evictionThreshold: {} },
    offerings: ['test-zone-a', 'test-zone-b'].flatMap((zone, i) => [
      { zone, capacityType: 'on-demand', price: onDemand + i * 0.001, available: true },
      { zone, capacityType: 'spot', price: onDemand * 0.4 + i * 0.001, available: true },
    ]),
  };
}

/** The mock cloud's instance types: three sizes in two zones, on-demand and spot. */
export function mockInstanceTypes(): CatalogInstanceType[] {
  return [type('standard-2', 2, 4, 0.05), type('standard-4', 4, 8, 0.1), type('standard-8', 8, 16, 0.2)];
}
