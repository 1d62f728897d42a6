import type { CatalogProviders } from '@nodewright/core/catalog';
import { formatManifestError, type ParsedManifest } from '@nodewright/core/manifests';
import type { CommandContext, OptionValues } from '../command.js';
import { noObjectsError, parseInputs, readInputs, skippedLine } from '../inputs.js';
import { writeErrors } from '../io.js';
import { expandWorkloads } from '../workloads/expand-workloads.js';
import { buildSnapshot, type Snapshot } from './build-snapshot.js';
import { readCatalogOptions, type SourcedCatalog } from './catalogs.js';

/** What a command read: the snapshot plus the parsed objects and catalogs behind it. */
export interface ClusterRead {
  readonly snapshot: Snapshot;
  readonly parsed: readonly ParsedManifest[];
  readonly catalogs: readonly SourcedCatalog[];
}

/**
 * Reads `-f` manifests and `--catalog` options into the snapshot `schedule` and `disrupt`
 * decide over. Every problem is written to stderr in the error format; undefined means the
 * command should exit 1.
 */
export async function readClusterSnapshot(
  values: OptionValues,
  context: CommandContext,
  catalogProviders: CatalogProviders,
): Promise<ClusterRead | undefined> {
  const { io, services } = context;
  const input = await readInputs(values, context);
  // Expanded before parsing, so the pods made go through the Pod schema like any given pod.
  const expansion = values['expand-workloads'] === true ? expandWorkloads(input.manifests) : undefined;
  if (expansion !== undefined) writeErrors(io.stderr, expansion.notes);
  const { parsed, errors, skipped } = parseInputs(services, expansion?.manifests ?? input.manifests, values);
  writeErrors(io.stderr, skipped.map(skippedLine));
  const catalogValues = Array.isArray(values.catalog) ? values.catalog.map(String) : [];
  const catalogs = await readCatalogOptions(catalogValues, {
    providers: catalogProviders,
    registry: services.registry,
    fs: services.fs,
    cwd: io.cwd,
  });
  const problems = [...input.errors, ...(expansion?.errors ?? []), ...errors, ...catalogs.errors];
  const empty = noObjectsError(input);
  if (problems.length > 0 || empty !== undefined) {
    writeErrors(io.stderr, empty === undefined ? problems.map(formatManifestError) : [empty]);
    return undefined;
  }
  const snapshot = buildSnapshot(parsed, {
    catalogs: catalogs.catalogs,
    knownCatalogs: catalogProviders.names(),
  });
  if (snapshot.errors.length > 0) {
    writeErrors(io.stderr, snapshot.errors.map(formatManifestError));
    return undefined;
  }
  return { snapshot, parsed, catalogs: catalogs.catalogs };
}
