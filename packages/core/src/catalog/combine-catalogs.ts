import type { InstanceTypeCatalog } from '../apis/catalog/instance-type-catalog.js';
import { formatFieldPath } from '../apis/field-errors.js';
import type { InstanceType } from '../cloudprovider/instance-type.js';
import { catalogWellKnownLabels, instanceTypesFromCatalog } from './catalog-instance-types.js';
import { type CatalogProblem, catalogObjectId } from './catalog-problem.js';

/** The instance types of several catalogs together, and the problems found on the way. */
export interface CombinedCatalogs {
  readonly instanceTypes: InstanceType[];
  /** The label keys the catalogs make well known (see catalogWellKnownLabels). */
  readonly wellKnownLabels: ReadonlySet<string>;
  /** Each with the index of the catalog it is about, so a caller can name that catalog's file. */
  readonly problems: Array<CatalogProblem & { readonly source: number }>;
}

/**
 * The instance types of every catalog, in order. A type name may appear in only one catalog:
 * the same name with two shapes or prices would make every decision about it ambiguous, so a
 * repeat is a problem reported against the later catalog. A type lacking a label another
 * catalog's types carry counts as `DoesNotExist` for it, as within one catalog.
 */
export function combineCatalogs(catalogs: readonly InstanceTypeCatalog[]): CombinedCatalogs {
  const instanceTypes: InstanceType[] = [];
  const problems: Array<CatalogProblem & { source: number }> = [];
  const owner = new Map<string, string>();
  const wellKnownLabels = catalogWellKnownLabels(catalogs);
  for (const [source, catalog] of catalogs.entries()) {
    const converted = instanceTypesFromCatalog(catalog, { wellKnownLabels });
    problems.push(...converted.problems.map((p) => ({ ...p, source })));
    for (const type of converted.instanceTypes) {
      const first = owner.get(type.name);
      if (first !== undefined) {
        const index = catalog.instanceTypes.findIndex((t) => t.name === type.name);
        problems.push({
          source,
          catalog: catalog.metadata.name,
          instanceType: type.name,
          path: formatFieldPath(['instanceTypes', index, 'name']),
          message: `instance type ${type.name} is also defined by ${catalogObjectId(first)}`,
        });
        continue;
      }
      owner.set(type.name, catalog.metadata.name);
      instanceTypes.push(type);
    }
  }
  return { instanceTypes, wellKnownLabels, problems };
}
