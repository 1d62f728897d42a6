import {
  type InstanceTypeCatalog,
  InstanceTypeCatalogApiVersion,
  InstanceTypeCatalogKind,
  type KindRegistry,
} from '@nodewright/core/apis';
import { type CatalogProviders, combineCatalogs } from '@nodewright/core/catalog';
import type { InstanceType } from '@nodewright/core/cloudprovider';
import {
  type ManifestError,
  type ManifestFs,
  type ManifestSource,
  type ParsedManifest,
  parseFieldPath,
  parseManifests,
  readManifests,
} from '@nodewright/core/manifests';
import { notInstalledHint } from '../providers/not-installed.js';

/** A catalog and where it came from, so problems with it name the file it was read from. */
export interface SourcedCatalog {
  readonly catalog: InstanceTypeCatalog;
  /** The file, or `<catalog NAME>` for one a provider ships. */
  readonly file: string;
  readonly source?: ManifestSource;
}

/** How `--catalog` values are read. */
export interface CatalogReader {
  readonly providers: CatalogProviders;
  readonly registry: KindRegistry;
  readonly fs: ManifestFs;
  readonly cwd: string;
}

/** How errors name a catalog a provider ships. */
export function providerCatalogFile(name: string): string {
  return `<catalog ${name}>`;
}

/**
 * Resolves each `--catalog` value: a name a provider ships (`kwok`) wins; anything else is a
 * file (or directory) of InstanceTypeCatalog objects. A value that is neither is an error
 * listing the known names. Other kinds in a catalog file are errors: they belong in `-f`.
 */
export async function readCatalogOptions(
  values: readonly string[],
  reader: CatalogReader,
): Promise<{ catalogs: SourcedCatalog[]; errors: ManifestError[] }> {
  const catalogs: SourcedCatalog[] = [];
  const errors: ManifestError[] = [];
  for (const value of values) {
    const provider = reader.providers.get(value);
    if (provider !== undefined) {
      catalogs.push({ catalog: await provider.catalog(), file: providerCatalogFile(value) });
      continue;
    }
    const set = await readManifests([value], {
      cwd: reader.cwd,
      fs: reader.fs,
      readStdin: async () => {
        throw new Error('--catalog does not read standard input; use -f - instead');
      },
    });
    if (set.manifests.length === 0 && set.errors.length > 0 && looksLikeName(value)) {
      const known = reader.providers.names();
      errors.push({
        file: value,
        message: `no catalog is named ${value} (known: ${known.length > 0 ? known.join(', ') : 'none'}) and no such file can be read${notInstalledHint(value, known)}`,
      });
      continue;
    }
    errors.push(...set.errors);
    const { parsed, errors: parseErrors } = parseManifests(reader.registry, set.manifests);
    errors.push(...parseErrors);
    for (const p of parsed) {
      const catalog = asCatalog(p);
      if (catalog !== undefined) {
        catalogs.push({ catalog, file: p.manifest.source.file, source: p.manifest.source });
      } else {
        errors.push({
          file: p.manifest.source.file,
          object: p.manifest.id,
          path: 'kind',
          message: `a --catalog file holds only ${InstanceTypeCatalogKind} objects; give other objects with -f`,
          line: p.manifest.source.line,
        });
      }
    }
    if (set.manifests.length === 0 && set.errors.length === 0) {
      errors.push({ file: value, message: `no ${InstanceTypeCatalogKind} objects found` });
    }
  }
  return { catalogs, errors };
}

/** The parsed manifest as a catalog, if it is one. */
export function asCatalog(parsed: ParsedManifest): InstanceTypeCatalog | undefined {
  const { apiVersion, kind } = parsed.manifest;
  return apiVersion === InstanceTypeCatalogApiVersion && kind === InstanceTypeCatalogKind
    ? (parsed.value as InstanceTypeCatalog)
    : undefined;
}

/**
 * The instance types of all catalogs together, with the label keys the catalogs make well known
 * (for `SolverInput.wellKnownLabels`); problems (a label clash, a type name two catalogs define)
 * become errors in the CLI's format, at the field's line where known.
 */
export function catalogInstanceTypes(catalogs: readonly SourcedCatalog[]): {
  instanceTypes: InstanceType[];
  wellKnownLabels: ReadonlySet<string>;
  errors: ManifestError[];
} {
  const { instanceTypes, wellKnownLabels, problems } = combineCatalogs(catalogs.map((c) => c.catalog));
  const errors = problems.map((p): ManifestError => {
    const sourced = catalogs[p.source]!;
    const line = sourced.source?.lineOf(parseFieldPath(p.path));
    return {
      file: sourced.file,
      object: `${InstanceTypeCatalogKind}/${p.catalog}`,
      path: p.path,
      message: p.message,
      ...(line === undefined ? {} : { line }),
    };
  });
  return { instanceTypes, wellKnownLabels, errors };
}

/** A bare word, not a path: read as a catalog name when no such file exists. */
function looksLikeName(value: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(value);
}
