import type { InstanceTypeCatalog } from '@nodewright/core/apis';
import {
  type CatalogProvider,
  describeCatalogProblem,
  instanceTypesFromCatalog,
} from '@nodewright/core/catalog';
import type { InstanceType } from '@nodewright/core/cloudprovider';
import { generateKwokCatalog, type KwokCatalogOptions } from './generate.js';

/** The KWOK catalog as an InstanceTypeCatalog object (for `--catalog kwok` and files). */
export function kwokCatalog(options?: KwokCatalogOptions): InstanceTypeCatalog {
  return generateKwokCatalog(options);
}

/**
 * The KWOK catalog as instance types.
 * @throws Error if the generator produced a type the catalog rules reject (a bug here).
 */
export function kwokInstanceTypes(options?: KwokCatalogOptions): InstanceType[] {
  const { instanceTypes, problems } = instanceTypesFromCatalog(generateKwokCatalog(options));
  if (problems.length > 0) throw new Error(problems.map(describeCatalogProblem).join('\n'));
  return instanceTypes;
}

/** `--catalog kwok`: Karpenter's KWOK instance types, for examples, tests and simulation. */
export const kwokCatalogProvider: CatalogProvider = {
  name: 'kwok',
  description:
    "Karpenter's KWOK types: 1-256 vCPU, c/s/m = 2/4/8 GiB per vCPU, amd64/arm64, linux/windows, test-zone-a..d, spot at 0.7x",
  catalog: () => generateKwokCatalog(),
};
