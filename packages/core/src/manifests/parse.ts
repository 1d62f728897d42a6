import { z } from 'zod';
import { type FieldError, fieldErrors } from '../apis/field-errors.js';
import type { KindDefinition, KindRegistry } from '../apis/kind.js';
import { closestName } from '../apis/suggest/closest.js';
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
  /**
   * Skip objects of kinds nodewright does not read (a Deployment, a Service, a ConfigMap in a
   * Helm render or `kubectl get all` output) instead of reporting them as errors. A kind in an
   * API group of the registry's own kinds (`karpenter.sh/v1 NodePol`) is still an error, as is
   * an unknown apiVersion of a known kind: those are mistakes, not other software's objects.
   */
  readonly skipUnknownKinds?: boolean;
  /**
   * Advice appended to a field error of a known kind, e.g. where v1 moved a v1beta1 field;
   * undefined for none.
   */
  readonly fieldHint?: (manifest: Manifest, error: FieldError) => string | undefined;
}

/**
 * How many objects of one kind an input must hold before that kind's schema is compiled for it
 * (zod's `z.compile`: generated code parses valid objects several times faster; an invalid one
 * goes through the ordinary parser, so its errors are the same). Compiling costs about what
 * parsing some hundreds of pods does, so only inputs of thousands of objects gain.
 */
export const CompileSchemaAtCount = 1000;

/** An object left out because nodewright does not read its kind, and how to say so. */
export interface SkippedManifest {
  readonly manifest: Manifest;
  readonly reason: string;
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
): { parsed: ParsedManifest[]; errors: ManifestError[]; skipped: SkippedManifest[] } {
  const parsed: ParsedManifest[] = [];
  const errors: ManifestError[] = [];
  const skipped: SkippedManifest[] = [];
  const schemaOf = compiledSchemas(registry, manifests);
  for (const manifest of manifests) {
    const definition = registry.get(manifest.apiVersion, manifest.kind);
    if (definition === undefined) {
      if (options.skipUnknownKinds && isForeignKind(registry, manifest)) {
        skipped.push({
          manifest,
          reason: `${manifest.kind} (${manifest.apiVersion}) is not a kind nodewright reads`,
        });
      } else {
        errors.push(unknownType(registry, manifest, options));
      }
      continue;
    }
    const result = schemaOf(definition).safeParse(manifest.object);
    if (result.success) {
      parsed.push({ manifest, definition, value: result.data });
      continue;
    }
    for (const error of fieldErrors(result.error.issues, { schema: definition.schema })) {
      const hint = options.fieldHint?.(manifest, error);
      const message = hint === undefined ? error.message : `${error.message}; ${hint}`;
      errors.push(at(manifest, error.path, message, error.segments));
    }
  }
  return { parsed, errors, skipped };
}

/** Each kind's schema, compiled for the kinds `manifests` holds CompileSchemaAtCount objects of. */
function compiledSchemas(
  registry: KindRegistry,
  manifests: readonly Manifest[],
): (definition: KindDefinition) => z.ZodType {
  const counts = new Map<KindDefinition, number>();
  for (const manifest of manifests) {
    const definition = registry.get(manifest.apiVersion, manifest.kind);
    if (definition !== undefined) counts.set(definition, (counts.get(definition) ?? 0) + 1);
  }
  const compiled = new Map<KindDefinition, z.ZodType>();
  for (const [definition, count] of counts) {
    if (count >= CompileSchemaAtCount) compiled.set(definition, z.compile(definition.schema));
  }
  return (definition) => compiled.get(definition) ?? definition.schema;
}

/** Neither the kind nor the API group is one of the registry's: another program's object. */
function isForeignKind(registry: KindRegistry, manifest: Manifest): boolean {
  if (registry.versionsOf(manifest.kind).length > 0) return false;
  const group = groupOfApiVersion(manifest.apiVersion);
  return !registry.withCrds().some((d) => groupOfApiVersion(d.apiVersion) === group);
}

function groupOfApiVersion(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function unknownType(
  registry: KindRegistry,
  manifest: Manifest,
  options: ParseManifestsOptions,
): ManifestError {
  const { apiVersion, kind } = manifest;
  const versions = registry.versionsOf(kind);
  if (versions.length === 0) {
    const kinds = [...new Set(registry.all().map((d) => d.kind))].sort();
    const meant = closestName(kind, kinds);
    const guess = meant === undefined ? '' : `did you mean ${meant}? `;
    return at(
      manifest,
      'kind',
      `${kind} (${apiVersion}) is not a kind nodewright knows (${guess}known: ${kinds.join(', ')})`,
      ['kind'],
    );
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
