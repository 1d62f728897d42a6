import {
  formatObjectError,
  type Manifest,
  type ManifestSet,
  type ParsedManifest,
  parseManifests,
  readManifests,
  type SkippedManifest,
  StdinName,
} from '@nodewright/core/manifests';
import type { CommandContext, OptionValues } from './command.js';
import { requireFiles } from './command.js';
import { readAll } from './io.js';
import type { CliServices } from './services.js';

/** The manifests of a command line's `-f` options, and those inputs as errors name them. */
export interface Inputs extends ManifestSet {
  readonly files: readonly string[];
}

/** Reads the manifests a command line's `-f` options name, relative to the working directory. */
export async function readInputs(values: OptionValues, { io, services }: CommandContext): Promise<Inputs> {
  const files = requireFiles(values);
  const set = await readManifests(files, {
    cwd: io.cwd,
    fs: services.fs,
    readStdin: () => readAll(io.stdin),
    recursive: values.recursive === true,
  });
  return { ...set, files: files.map((f) => (f === '-' ? StdinName : f)) };
}

/** The error for inputs that held no objects at all, which is almost always a mistake. */
export function noObjectsError(inputs: Inputs): string | undefined {
  if (inputs.manifests.length > 0 || inputs.errors.length > 0) return undefined;
  return `${inputs.files.join(', ')}: no objects found`;
}

/**
 * Parses manifests as the commands do: with the services' hints (convert for old versions,
 * migration advice for old fields) and, unless `--strict`, skipping kinds nodewright does not
 * read, so a Helm render or `kubectl get all` output can be given as it is.
 */
export function parseInputs(
  services: CliServices,
  manifests: readonly Manifest[],
  values: OptionValues,
): {
  parsed: ParsedManifest[];
  errors: ReturnType<typeof parseManifests>['errors'];
  skipped: SkippedManifest[];
} {
  return parseManifests(services.registry, manifests, {
    unsupportedVersionHint: (apiVersion, kind) => services.unsupportedVersionHint(apiVersion, kind),
    fieldHint: (manifest, error) => services.fieldHint(manifest, error),
    skipUnknownKinds: values.strict !== true,
  });
}

/** The stderr line for an object left out: `FILE: Kind/name: skipped: why (line N)`. */
export function skippedLine(skipped: SkippedManifest): string {
  const { manifest } = skipped;
  return formatObjectError(
    manifest.source.file,
    manifest.id,
    '',
    `skipped: ${skipped.reason} (--strict makes this an error)`,
    manifest.source.line,
  );
}
