import type {
  DaemonSet,
  Node,
  NodeClaim,
  NodePool,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  StorageClass,
} from '@nodewright/core/apis';
import type { InstanceType } from '@nodewright/core/cloudprovider';
import type { ManifestError, ParsedManifest } from '@nodewright/core/manifests';
import type { SolverInput } from '@nodewright/core/scheduling';
import { buildSolverInput, type IgnoredPod, whyNodePoolUnusable } from '@nodewright/core/snapshot';
import { asCatalog, catalogInstanceTypes, type SourcedCatalog } from './catalogs.js';

export type { IgnoredPod };

/** The solver's input built from manifests, with what was left out and what was wrong. */
export interface Snapshot {
  readonly input: SolverInput;
  readonly ignored: IgnoredPod[];
  /** About objects other than pods, e.g. a NodePool that cannot provision. */
  readonly notes: string[];
  /** Invalid input: the decision must not be made (exit 1). */
  readonly errors: ManifestError[];
}

export interface SnapshotOptions {
  /** Catalogs given apart from the manifests (`--catalog`). */
  readonly catalogs?: readonly SourcedCatalog[];
  /** Catalog names to suggest when a NodePool has no instance types. */
  readonly knownCatalogs?: readonly string[];
}

const kindOf = (p: ParsedManifest) => `${p.manifest.apiVersion}/${p.manifest.kind}`;

/**
 * Builds the snapshot one provisioning decision looks at from parsed manifests with core's
 * `buildSolverInput` — the function the controller cuts its snapshot with — plus what only
 * manifests need (catalogs, duplicate objects):
 *
 * - Pending pods are those without `spec.nodeName` that the provisioner would act on (see
 *   podRole); the others are listed in `ignored` with the reason. A pending pod that
 *   kube-scheduler nominated to a node of the input counts on that node instead.
 * - Bound pods are grouped onto their Node (or in-flight NodeClaim); see clusterCapacity.
 * - NodePools are used unless being deleted, static (`spec.replicas`), or not Ready; every
 *   NodePool gets the instance types of all catalogs (its own requirements narrow them in the
 *   solver). A usable NodePool with no catalog at all is an error naming it. The catalogs'
 *   label keys are well known to the solver (see catalogWellKnownLabels).
 * - An object given twice (same kind, namespace and name) is an error: the decision would be
 *   ambiguous.
 */
export function buildSnapshot(parsed: readonly ParsedManifest[], options: SnapshotOptions = {}): Snapshot {
  const errors: ManifestError[] = duplicateErrors(parsed);
  const of = <T>(kind: string) => parsed.filter((p) => kindOf(p) === kind) as ParsedManifest<T>[];

  const catalogs: SourcedCatalog[] = [...(options.catalogs ?? [])];
  for (const p of parsed) {
    const catalog = asCatalog(p);
    if (catalog !== undefined)
      catalogs.push({ catalog, file: p.manifest.source.file, source: p.manifest.source });
  }
  const { instanceTypes, wellKnownLabels, errors: catalogErrors } = catalogInstanceTypes(catalogs);
  errors.push(...catalogErrors);

  const nodePools: NodePool[] = [];
  const typesByPool = new Map<string, readonly InstanceType[]>();
  for (const p of of<NodePool>('karpenter.sh/v1/NodePool')) {
    const pool = p.value;
    const name = pool.metadata.name ?? p.manifest.name ?? p.manifest.id;
    // An unusable pool is noted by buildSolverInput; only a usable one needs instance types.
    if (whyNodePoolUnusable(pool) === undefined && catalogs.length === 0) {
      const known = options.knownCatalogs ?? [];
      errors.push({
        file: p.manifest.source.file,
        object: p.manifest.id,
        path: '',
        message: `no instance types: give a catalog with --catalog NAME or FILE, or an InstanceTypeCatalog with -f${known.length > 0 ? ` (catalogs: ${known.join(', ')})` : ''}`,
        line: p.manifest.source.line,
      });
      continue;
    }
    nodePools.push(pool);
    typesByPool.set(name, instanceTypes);
  }

  const snapshot = buildSolverInput(
    {
      pods: of<Pod>('v1/Pod').map((p) => p.value),
      nodes: of<Node>('v1/Node').map((p) => p.value),
      nodeClaims: of<NodeClaim>('karpenter.sh/v1/NodeClaim').map((p) => p.value),
      nodePools,
      daemonSets: of<DaemonSet>('apps/v1/DaemonSet').map((p) => p.value),
      persistentVolumeClaims: of<PersistentVolumeClaim>('v1/PersistentVolumeClaim').map((p) => p.value),
      persistentVolumes: of<PersistentVolume>('v1/PersistentVolume').map((p) => p.value),
      storageClasses: of<StorageClass>('storage.k8s.io/v1/StorageClass').map((p) => p.value),
    },
    typesByPool,
    { wellKnownLabels },
  );
  const daemonSets = of<DaemonSet>('apps/v1/DaemonSet').map((p) => p.value);
  const orphans = daemonSetsOnlyByPods(
    of<Pod>('v1/Pod').map((p) => p.value),
    daemonSets,
  );
  const notes =
    orphans.length === 0
      ? snapshot.notes
      : [
          ...snapshot.notes,
          `pods of DaemonSet${orphans.length === 1 ? '' : 's'} ${orphans.join(', ')} are in the input but not the DaemonSet${orphans.length === 1 ? '' : 's'}: their requests on new nodes are not counted (add daemonsets to the kubectl get)`,
        ];
  return { input: snapshot.input, ignored: snapshot.ignored, notes, errors };
}

/**
 * `namespace/name` of the DaemonSets that own pods of the input but are not in it themselves:
 * `kubectl get pods,nodes,...` without `daemonsets` gives their pods only, and a new node's
 * DaemonSet overhead comes from the DaemonSet objects.
 */
function daemonSetsOnlyByPods(pods: readonly Pod[], daemonSets: readonly DaemonSet[]): string[] {
  const given = new Set(
    daemonSets.map((d) => `${d.metadata.namespace ?? 'default'}/${d.metadata.name ?? ''}`),
  );
  const missing = new Set<string>();
  for (const pod of pods) {
    for (const ref of pod.metadata.ownerReferences ?? []) {
      if (ref.kind !== 'DaemonSet') continue;
      const key = `${pod.metadata.namespace ?? 'default'}/${ref.name}`;
      if (!given.has(key)) missing.add(key);
    }
  }
  return [...missing].sort();
}

/** One error per object that repeats an earlier one's kind, namespace and name. */
function duplicateErrors(parsed: readonly ParsedManifest[]): ManifestError[] {
  const first = new Map<string, ParsedManifest>();
  const errors: ManifestError[] = [];
  for (const p of parsed) {
    if (p.manifest.name === undefined) continue;
    const namespace = p.definition.namespaced
      ? ((p.value as { metadata?: { namespace?: string } }).metadata?.namespace ?? 'default')
      : '';
    const key = `${kindOf(p)}\u0000${namespace}\u0000${p.manifest.name}`;
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, p);
      continue;
    }
    const where = `${earlier.manifest.source.file}, line ${earlier.manifest.source.line}`;
    errors.push({
      file: p.manifest.source.file,
      object: p.manifest.id,
      path: 'metadata.name',
      message: `${namespace === '' ? '' : `${namespace}/`}${p.manifest.name} is given twice (first at ${where})`,
      line: p.manifest.source.line,
    });
  }
  return errors;
}
