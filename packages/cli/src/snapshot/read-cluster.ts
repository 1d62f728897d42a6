import { InstanceTypeCatalogKind } from '@nodewright/core/apis';
import type { CatalogProviders } from '@nodewright/core/catalog';
import {
  formatManifestError,
  type Manifest,
  type ManifestError,
  type ParsedManifest,
} from '@nodewright/core/manifests';
import { type CommandContext, type OptionValues, UsageError } from '../command.js';
import { type Inputs, noObjectsError, parseInputs, readInputs, skippedLine } from '../inputs.js';
import { writeErrors } from '../io.js';
import { type ClusterTarget, clusterTargetOf } from '../live/cluster-target.js';
import { defaultCatalogs, type NodeClassCatalogs } from '../live/default-catalogs.js';
import { ClusterAccessError, type ClusterConnector, type LiveCluster } from '../live/live-cluster.js';
import type { LiveObjects } from '../live/read-live-objects.js';
import { expandWorkloads } from '../workloads/expand-workloads.js';
import { buildSnapshot, type Snapshot } from './build-snapshot.js';
import { readCatalogOptions, type SourcedCatalog } from './catalogs.js';

/** What a command read: the snapshot plus the parsed objects and catalogs behind it. */
export interface ClusterRead {
  readonly snapshot: Snapshot;
  readonly parsed: readonly ParsedManifest[];
  readonly catalogs: readonly SourcedCatalog[];
  /** The cluster read, when one was (for further reads such as Events). */
  readonly cluster?: LiveCluster;
}

/** How a command reads a live cluster (`--kubeconfig`, `--context`); see docs/cli.md. */
export interface LiveInputs {
  readonly connect: ClusterConnector;
  /** The catalogs used by default for a NodeClass kind, when no `--catalog` is given. */
  readonly nodeClassCatalogs: NodeClassCatalogs;
  /** Read the cluster even when neither option is given (`why`); else only when one is. */
  readonly always?: boolean;
}

/**
 * Reads `-f` manifests, the live cluster (with `live` and `--kubeconfig`/`--context`) and
 * `--catalog` options into the snapshot `schedule`, `disrupt` and `why` decide over; objects from
 * the cluster take the same parsing path as files. Every problem is written to stderr in the
 * error format; undefined means the command should exit 1.
 */
export async function readClusterSnapshot(
  values: OptionValues,
  context: CommandContext,
  catalogProviders: CatalogProviders,
  live?: LiveInputs,
): Promise<ClusterRead | undefined> {
  const { io, services } = context;
  const target: ClusterTarget | undefined =
    live === undefined ? undefined : (clusterTargetOf(values) ?? (live.always === true ? {} : undefined));
  const hasFiles = Array.isArray(values.filename) && values.filename.length > 0;
  if (live !== undefined && target === undefined && !hasFiles)
    throw new UsageError('-f FILE is required (or --kubeconfig FILE or --context NAME to read a cluster)');
  const input: Inputs =
    target !== undefined && !hasFiles
      ? { manifests: [], errors: [], files: [] }
      : await readInputs(values, context);
  let fromCluster: LiveObjects | undefined;
  let cluster: LiveCluster | undefined;
  if (target !== undefined) {
    try {
      cluster = await live!.connect(target);
      // Loaded here: the cluster port's adapters are not needed to read files.
      const { readLiveObjects } = await import('../live/read-live-objects.js');
      fromCluster = await readLiveObjects(cluster, services.registry);
    } catch (error) {
      if (!(error instanceof ClusterAccessError)) throw error;
      writeErrors(io.stderr, [`nodewright: ${error.message}`]);
      return undefined;
    }
  }
  const liveNotes = [...(fromCluster?.notes ?? [])];
  const manifests = [...input.manifests, ...(fromCluster?.manifests ?? [])];
  // Expanded before parsing, so the pods made go through the Pod schema like any given pod.
  const expansion = values['expand-workloads'] === true ? expandWorkloads(manifests) : undefined;
  if (expansion !== undefined) writeErrors(io.stderr, expansion.notes);
  const { parsed, errors, skipped } = parseInputs(services, expansion?.manifests ?? manifests, values);
  writeErrors(io.stderr, skipped.map(skippedLine));
  let catalogValues = Array.isArray(values.catalog) ? values.catalog.map(String) : [];
  if (fromCluster !== undefined && catalogValues.length === 0 && !manifests.some(isCatalog)) {
    const defaults = defaultCatalogs(manifests, live!.nodeClassCatalogs);
    catalogValues = defaults.names;
    liveNotes.push(...defaults.notes);
  }
  const catalogs = await readCatalogOptions(catalogValues, {
    providers: catalogProviders,
    registry: services.registry,
    fs: services.fs,
    cwd: io.cwd,
  });
  const liveFile = fromCluster?.sourceName;
  // The API server admitted the cluster's objects: one nodewright's schemas refuse is left out
  // with a note, as the controller leaves it out, rather than stopping the whole answer.
  const fromFiles = errors.filter((e) => e.file !== liveFile);
  liveNotes.push(...leftOut(errors.filter((e) => e.file === liveFile)));
  const problems = [
    ...input.errors,
    ...(fromCluster?.errors ?? []),
    ...(expansion?.errors ?? []),
    ...fromFiles,
    ...catalogs.errors,
  ];
  const empty = fromCluster === undefined ? noObjectsError(input) : undefined;
  if (problems.length > 0 || empty !== undefined) {
    writeErrors(io.stderr, empty === undefined ? problems.map((e) => formatError(e, liveFile)) : [empty]);
    return undefined;
  }
  const built = buildSnapshot(parsed, {
    catalogs: catalogs.catalogs,
    knownCatalogs: catalogProviders.names(),
  });
  if (built.errors.length > 0) {
    writeErrors(
      io.stderr,
      built.errors.map((e) => formatError(e, liveFile)),
    );
    return undefined;
  }
  const snapshot = liveNotes.length === 0 ? built : { ...built, notes: [...liveNotes, ...built.notes] };
  return { snapshot, parsed, catalogs: catalogs.catalogs, ...(cluster === undefined ? {} : { cluster }) };
}

const isCatalog = (m: Manifest) => m.kind === InstanceTypeCatalogKind;

/** One note per cluster object the schemas refuse: its first problem, and how many more. */
function leftOut(errors: readonly ManifestError[]): string[] {
  const byObject = new Map<string, ManifestError[]>();
  for (const e of errors) {
    const key = e.object ?? e.message;
    byObject.set(key, [...(byObject.get(key) ?? []), e]);
  }
  return [...byObject].map(([object, all]) => {
    const first = all[0]!;
    const more = all.length > 1 ? ` (and ${all.length - 1} more)` : '';
    return `${object} left out: ${first.path ? `${first.path}: ` : ''}${first.message}${more}`;
  });
}

/** Objects read from a cluster have no lines: their errors name the cluster and the object only. */
function formatError(error: ManifestError, liveFile: string | undefined): string {
  if (liveFile === undefined || error.file !== liveFile) return formatManifestError(error);
  const { line: _, ...rest } = error;
  return formatManifestError(rest);
}
