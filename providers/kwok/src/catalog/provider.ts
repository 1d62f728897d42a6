import type { InstanceTypeCatalog } from '@nodewright/core/apis';
import { describeCatalogProblem, instanceTypesFromCatalog } from '@nodewright/core/catalog';
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
