// The large realistic catalog the schedule and catalog-metrics benchmarks share.
import { instanceTypesFromCatalog } from '../packages/core/dist/catalog/index.js';
import type { InstanceType } from '../packages/core/dist/cloudprovider/index.js';
import { generateKwokCatalog } from '../providers/kwok/dist/index.js';

/**
 * About 800 types x 6 zones x 2 capacity types, generated like the KWOK catalog but wider:
 * 20 sizes (1-256 vCPU) x 5 families (1, 2, 4, 8, 16 GiB per vCPU) x amd64/arm64 (arm64 20 %
 * cheaper) x 4 generations (each 4 % cheaper than the one before), linux only, spot at 0.7x,
 * with KWOK's pod density and the same kubelet overhead = 800 types, 9,600 offerings.
 */
export function largeCatalog(): InstanceType[] {
  const catalog = generateKwokCatalog({
    name: 'large',
    cpus: [1, 2, 4, 6, 8, 12, 16, 20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192, 224, 256],
    families: [
      { name: 'h', memoryGiPerCpu: 1 },
      { name: 'c', memoryGiPerCpu: 2 },
      { name: 's', memoryGiPerCpu: 4 },
      { name: 'm', memoryGiPerCpu: 8 },
      { name: 'x', memoryGiPerCpu: 16 },
    ],
    architectures: ['amd64', 'arm64'],
    architecturePriceFactor: { arm64: 0.8 },
    operatingSystems: ['linux'],
    generations: [5, 6, 7, 8],
    zones: ['zone-a', 'zone-b', 'zone-c', 'zone-d', 'zone-e', 'zone-f'],
  });
  const { instanceTypes, problems } = instanceTypesFromCatalog(catalog);
  if (problems.length > 0) throw new Error(`large catalog: ${problems.length} problems`);
  return instanceTypes;
}
