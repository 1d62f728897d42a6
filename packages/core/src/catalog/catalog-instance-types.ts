import type { CatalogInstanceType, InstanceTypeCatalog } from '../apis/catalog/instance-type-catalog.js';
import { formatFieldPath } from '../apis/field-errors.js';
import { Labels, WellKnownLabels } from '../apis/labels.js';
import { type InstanceType, newInstanceType } from '../cloudprovider/instance-type.js';
import { newOffering, type Offering } from '../cloudprovider/offering.js';
import { normalizeLabelKey } from '../scheduling/requirements/label-keys.js';
import { Requirement } from '../scheduling/requirements/requirement.js';
import { Requirements } from '../scheduling/requirements/requirements.js';
import { parseResourceList, type ResourceList } from '../scheduling/resources/resource-list.js';
import type { CatalogProblem } from './catalog-problem.js';

/** The instance types a catalog describes, and what kept any of them from being built. */
export interface CatalogInstanceTypes {
  /** In catalog order; a type with a problem is left out. */
  readonly instanceTypes: InstanceType[];
  readonly problems: CatalogProblem[];
}

/** Labels an offering sets; a type's own label may not set them under any alias. */
const OfferingLabels: ReadonlySet<string> = new Set([Labels.Zone, Labels.CapacityType]);

/**
 * The label keys the catalogs make well known beyond core's: each catalog's `wellKnownLabels`
 * and every label key one of their types carries (stable spellings), sorted. What
 * `SolverInput.wellKnownLabels` gets when the instance types come from these catalogs.
 */
export function catalogWellKnownLabels(catalogs: readonly InstanceTypeCatalog[]): ReadonlySet<string> {
  const keys = new Set<string>();
  for (const catalog of catalogs) {
    for (const key of catalog.wellKnownLabels ?? []) keys.add(normalizeLabelKey(key));
    for (const type of catalog.instanceTypes)
      for (const key of Object.keys(type.labels)) keys.add(normalizeLabelKey(key));
  }
  return new Set([...keys].filter((k) => !WellKnownLabels.has(k) && !OfferingLabels.has(k)).sort());
}

/** How catalog types are built. */
export interface CatalogInstanceTypesOptions {
  /**
   * Label keys a type that lacks them gets `DoesNotExist` for (so `In`/`Exists` selectors on
   * them skip it); by default {@link catalogWellKnownLabels} of the catalog itself.
   */
  readonly wellKnownLabels?: ReadonlySet<string>;
}

/**
 * Turns a parsed `nodewright.dev/v1alpha1` InstanceTypeCatalog into instance types. Each
 * type's requirements are its labels (one value per key) plus `node.kubernetes.io/instance-type`
 * In [name], `karpenter.sh/capacity-type` In [the capacity types of its offerings] and
 * `topology.kubernetes.io/zone` In [the zones of its offerings]; unavailable offerings count
 * too, because availability is an offering's property the solver checks, and a type whose
 * offerings are all unavailable must still explain why a pod cannot use it. Allocatable is
 * capacity minus kubeReserved, systemReserved and evictionThreshold. A type gets `DoesNotExist`
 * for each well-known catalog label it does not carry (see {@link CatalogInstanceTypesOptions}),
 * as a provider's types define every label the provider makes well known.
 *
 * The schema has already checked each field alone; what is checked here is what only shows
 * once labels are read as requirements (a deprecated alias that clashes with its stable key,
 * or one that sets a zone), each reported with the catalog, the type and the field.
 */
export function instanceTypesFromCatalog(
  catalog: InstanceTypeCatalog,
  options: CatalogInstanceTypesOptions = {},
): CatalogInstanceTypes {
  const absent = options.wellKnownLabels ?? catalogWellKnownLabels([catalog]);
  const instanceTypes: InstanceType[] = [];
  const problems: CatalogProblem[] = [];
  for (const [index, type] of catalog.instanceTypes.entries()) {
    const problem = (segments: PropertyKey[], message: string): CatalogProblem => ({
      catalog: catalog.metadata.name,
      instanceType: type.name,
      path: formatFieldPath(['instanceTypes', index, ...segments]),
      message: `instance type ${type.name}: ${message}`,
    });
    const built = buildInstanceType(type, problem, absent);
    if ('problems' in built) problems.push(...built.problems);
    else instanceTypes.push(built.instanceType);
  }
  return { instanceTypes, problems };
}

type ProblemAt = (segments: PropertyKey[], message: string) => CatalogProblem;

function buildInstanceType(
  type: CatalogInstanceType,
  problemAt: ProblemAt,
  absent: ReadonlySet<string>,
): { instanceType: InstanceType } | { problems: CatalogProblem[] } {
  const problems: CatalogProblem[] = [];
  const requirements = new Requirements();
  const setBy = new Map<string, string>();
  for (const [key, value] of Object.entries(type.labels)) {
    const stable = normalizeLabelKey(key);
    if (OfferingLabels.has(stable)) {
      problems.push(
        problemAt(['labels', key], `${key} is set per offering (zone and capacityType), not per type`),
      );
      continue;
    }
    if (stable === Labels.InstanceType && value !== type.name) {
      problems.push(problemAt(['labels', key], `must equal the type's name ${JSON.stringify(type.name)}`));
      continue;
    }
    const earlier = setBy.get(stable);
    if (earlier !== undefined && type.labels[earlier] !== value) {
      problems.push(
        problemAt(
          ['labels', key],
          `${JSON.stringify(value)} contradicts ${earlier}=${JSON.stringify(type.labels[earlier])}: both set ${stable}`,
        ),
      );
      continue;
    }
    setBy.set(stable, key);
    requirements.add(Requirement.create(stable, 'In', [value]));
  }
  const capacity = resources(type.capacity, ['capacity'], problemAt, problems);
  const overhead = {
    kubeReserved: resources(type.overhead?.kubeReserved, ['overhead', 'kubeReserved'], problemAt, problems),
    systemReserved: resources(
      type.overhead?.systemReserved,
      ['overhead', 'systemReserved'],
      problemAt,
      problems,
    ),
    evictionThreshold: resources(
      type.overhead?.evictionThreshold,
      ['overhead', 'evictionThreshold'],
      problemAt,
      problems,
    ),
  };
  if (problems.length > 0) return { problems };

  const offerings: Offering[] = type.offerings.map((o) =>
    newOffering({
      zone: o.zone,
      capacityType: o.capacityType,
      price: o.price,
      available: o.available,
      ...(o.reservationCapacity !== undefined ? { reservationCapacity: o.reservationCapacity } : {}),
    }),
  );
  requirements.add(
    Requirement.create(Labels.InstanceType, 'In', [type.name]),
    Requirement.create(Labels.CapacityType, 'In', distinct(offerings.map((o) => o.capacityType))),
    Requirement.create(Labels.Zone, 'In', distinct(offerings.map((o) => o.zone))),
  );
  for (const key of absent) {
    if (!requirements.has(key)) requirements.add(Requirement.create(key, 'DoesNotExist'));
  }
  return { instanceType: newInstanceType({ name: type.name, requirements, offerings, capacity, overhead }) };
}

function resources(
  list: Readonly<Record<string, string>> | undefined,
  at: PropertyKey[],
  problemAt: ProblemAt,
  problems: CatalogProblem[],
): ResourceList {
  const out = new Map();
  for (const [name, text] of Object.entries(list ?? {})) {
    try {
      for (const [n, q] of parseResourceList({ [name]: text })) out.set(n, q);
    } catch (error) {
      problems.push(problemAt([...at, name], error instanceof Error ? error.message : String(error)));
    }
  }
  return out;
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}
