import { fieldErrors } from '../apis/field-errors.js';
import type { KindDefinition, KindRegistry } from '../apis/kind.js';
import type { Manifest, ManifestError } from './manifest.js';

/** A manifest of a known kind that passed its schema, with the parsed (defaulted) value. */
export interface ParsedManifest<T = unknown> {
  readonly manifest: Manifest;
  readonly definition: KindDefinition<T>;
  readonly value: T;
}

export interface ParseManifestsOptions {
  /**
   * Advice appended to the error for an apiVersion the registry lacks, e.g. to run
   * `nodewright convert`; undefined for none.
   */
  readonly unsupportedVersionHint?: (apiVersion: string, kind: string) => string | undefined;
}

/**
 * Parses each manifest with its kind's schema. An unknown kind or an unknown apiVersion of a
 * known kind is an error, never skipped. Schema failures become one error per field, citing
 * the field's line in the file.
 */
export function parseManifests(
  registry: KindRegistry,
  manifests: readonly Manifest[],
  options: ParseManifestsOptions = {},
): { parsed: ParsedManifest[]; errors: ManifestError[] } {
  const parsed: ParsedManifest[] = [];
  const errors: ManifestError[] = [];
  for (const manifest of manifests) {
    const definition = registry.get(manifest.apiVersion, manifest.kind);
    if (definition === undefined) {
      errors.push(unknownType(registry, manifest, options));
      continue;
    }
    const result = definition.schema.safeParse(manifest.object);
    if (result.success) {
      parsed.push({ manifest, definition, value: result.data });
      continue;
    }
    for (const error of fieldErrors(result.error.issues)) {
      errors.push(at(manifest, error.path, error.message, error.segments));
    }
  }
  return { parsed, errors };
}

function unknownType(
  registry: KindRegistry,
  manifest: Manifest,
  options: ParseManifestsOptions,
): ManifestError {
  const { apiVersion, kind } = manifest;
  const versions = registry.versionsOf(kind);
  if (versions.length === 0) {
    const known = [...new Set(registry.all().map((d) => d.kind))].sort().join(', ');
    return at(manifest, 'kind', `${kind} (${apiVersion}) is not a kind nodewright knows (known: ${known})`, [
      'kind',
    ]);
  }
  const hint = options.unsupportedVersionHint?.(apiVersion, kind);
  const message = `${kind} apiVersion ${apiVersion} is not supported (known: ${versions.sort().join(', ')})`;
  return at(manifest, 'apiVersion', hint ? `${message}; ${hint}` : message, ['apiVersion']);
}

function at(
  manifest: Manifest,
  path: string,
  message: string,
  segments: readonly PropertyKey[],
): ManifestError {
  const line = manifest.source.lineOf(segments);
  return {
    file: manifest.source.file,
    object: manifest.id,
    path,
    message,
    ...(line === undefined ? {} : { line }),
  };
}
