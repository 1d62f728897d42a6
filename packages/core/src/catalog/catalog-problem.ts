import { InstanceTypeCatalogKind } from '../apis/catalog/instance-type-catalog.js';

/**
 * Something about a catalog that keeps it from becoming instance types. `path` is the field
 * path inside the catalog object (`instanceTypes[3].labels["kubernetes.io/arch"]`), so the
 * CLI can print it in the contract's `file: Kind/name: field.path: message` form.
 */
export interface CatalogProblem {
  /** `metadata.name` of the catalog. */
  readonly catalog: string;
  /** The instance type's name, when the problem is about one. */
  readonly instanceType?: string;
  readonly path: string;
  readonly message: string;
}

/** `InstanceTypeCatalog/<name>`, the object id errors about a catalog carry. */
export function catalogObjectId(catalog: string): string {
  return `${InstanceTypeCatalogKind}/${catalog}`;
}

/** One line: `InstanceTypeCatalog/name: field.path: message`. */
export function describeCatalogProblem(problem: CatalogProblem): string {
  const path = problem.path === '' ? '' : `${problem.path}: `;
  return `${catalogObjectId(problem.catalog)}: ${path}${problem.message}`;
}
